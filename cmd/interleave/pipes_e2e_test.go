package main

import (
	"strings"
	"testing"

	"interleave.dev/internal/driver"
)

// pipesModule is a module whose tests talk through the standard library's
// in-memory pipes and over the loopback interface, each in a package of
// its own; the buggy packages are twins of the pipe programs that never
// finish.
func pipesModule(t *testing.T) string {
	const stream = `
import (
	"encoding/json"
	"io"
	"testing"
)

type record struct{ N int }

func TestStream(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		enc := json.NewEncoder(pw)
		for i := 0; i < 3; i++ {
			enc.Encode(record{i})
		}
		CLOSE
	}()
	data, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 3*len("{\"N\":0}\n") {
		t.Errorf("read %q", data)
	}
}
`
	const conn = `
import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

func serve(c net.Conn) {
	defer c.Close()
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return
	}
	c.Write([]byte(strings.ToUpper(line)))
}

func TestRequestResponse(t *testing.T) {
	client, server := net.Pipe()
	go serve(server)
	client.SetDeadline(time.Now().Add(time.Second))
	EXCHANGE
	if string(resp) != "PING\n" {
		t.Errorf("response %q", resp)
	}
}
`
	const request = `if _, err := client.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := io.ReadAll(client)
	if err != nil {
		t.Fatal(err)
	}`
	// The client waits for the response before it sends the request.
	const responseFirst = `resp, err := io.ReadAll(client)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}`
	return writeModule(t, map[string]string{
		"go.mod":                   "module example.com/pipes\n\ngo 1.22\n",
		"stream/stream_test.go":    "package stream\n" + strings.Replace(stream, "CLOSE", "pw.Close()", 1),
		"streambug/stream_test.go": "package streambug\n" + strings.Replace(stream, "CLOSE", "// the writer never closes", 1),
		"conn/conn_test.go":        "package conn\n" + strings.Replace(conn, "EXCHANGE", request, 1),
		"connbug/conn_test.go":     "package connbug\n" + strings.Replace(strings.Replace(conn, "EXCHANGE", responseFirst, 1), `client.SetDeadline(time.Now().Add(time.Second))`, `_ = time.Second`, 1),
		"tcp/tcp_test.go": `package tcp

import (
	"bufio"
	"net"
	"strings"
	"testing"
)

func TestLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Write([]byte(strings.ToUpper(line)))
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("ping\n"))
	if line, _ := bufio.NewReader(c).ReadString('\n'); line != "PING\n" {
		t.Errorf("response %q", line)
	}
}
`,
		"tls/tls_test.go": `package tls

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"
)

func certificate(t *testing.T) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func TestTLSLoopback(t *testing.T) {
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{certificate(t)}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Write([]byte(strings.ToUpper(line)))
	}()
	c, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("ping\n"))
	if line, _ := bufio.NewReader(c).ReadString('\n'); line != "PING\n" {
		t.Errorf("response %q", line)
	}
}
`,
	})
}

// TestPipesAndLoopbackPeersAreExplored runs tests that block inside the
// standard library: on an io.Pipe, a net.Pipe, a TCP and a TLS connection
// over the loopback interface. Each passes under exploration (no goroutine
// left stuck waiting for a peer the scheduler keeps parked), and the
// buggy pipe programs are reported as the deadlocks they are.
func TestPipesAndLoopbackPeersAreExplored(t *testing.T) {
	if testing.Short() {
		t.Skip("explores a module")
	}
	dir := pipesModule(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=100", "-stuck-after=5s", "./stream", "./conn", "./tcp", "./tls")
	if code != 0 || strings.Contains(stdout, "stuck") {
		t.Fatalf("fixed: exit %d, want 0 and nothing stuck\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "4 tests, 400 schedules: 4 passed") {
		t.Errorf("not every test ran its 100 schedules:\n%s", stderr)
	}
	for _, pkg := range []string{"./streambug", "./connbug"} {
		code, stdout, stderr = cli(t, "test", "-C", dir, "-schedules=100", "-stuck-after=5s", pkg)
		if code != driver.ExitFail || !strings.Contains(stdout, "deadlock") || strings.Contains(stdout, "stuck") {
			t.Fatalf("%s: exit %d, want 1 and a deadlock\nstdout:\n%s\nstderr:\n%s", pkg, code, stdout, stderr)
		}
	}
}
