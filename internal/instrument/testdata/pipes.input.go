package testdata

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"
)

type sink struct {
	w    io.Writer
	pw   *io.PipeWriter
	rest []io.Reader
}

func readers(r *io.PipeReader) (io.Reader, io.ReadCloser, *io.PipeReader) {
	return r, r, r
}

func pipes() {
	pr, pw := io.Pipe()
	go func() {
		json.NewEncoder(pw).Encode(1)
		pw.CloseWithError(fmt.Errorf("done"))
	}()
	io.ReadAll(pr)
	io.Copy(io.Discard, (pr))
	var r io.Reader = pr
	r = pr
	var keep *io.PipeReader = pr
	s := sink{w: pw, pw: pw, rest: []io.Reader{pr, strings.NewReader("")}}
	_ = sink{pw, pw, nil}
	m := map[string]io.Writer{"p": pw}
	ch := make(chan io.Reader, 1)
	ch <- pr
	cmd := exec.Command("cat")
	cmd.Stdin = pr
	buf := make([]byte, 4)
	pr.Read(buf)
	pw.Write(buf)
	read := pr.Read
	_ = read
	w := io.MultiWriter(pw, pw)
	_ = any(pr)
	_ = io.Reader(pr)
	fmt.Println(pr, pw)
	defer pr.Close()
	_, _, _, _, _, _ = r, keep, s, m, w, cmd

	c1, c2 := net.Pipe()
	c1.Write(buf)
	c2.Read(buf)
}

type wrapped struct{ net.Conn }

func deadlines(c net.Conn, tc *net.TCPConn, w *wrapped, f *os.File) {
	d := time.Now().Add(time.Second)
	c.SetDeadline(d)
	tc.SetReadDeadline(d)
	w.SetWriteDeadline(d)
	f.SetDeadline(d)
	tls.Client(c, nil).SetDeadline(d)
	_ = c.SetDeadline
}
