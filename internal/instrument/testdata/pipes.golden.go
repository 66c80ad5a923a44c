//line testdata/pipes.go:1
package testdata; import __rt "interleave.dev/rt"

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
	return __rt.PipeReaderValue(r), __rt.PipeReaderValue(r), r
}

func pipes() {
	pr, pw := __rt.IOPipe(__rtSites_48db876e+0)
	__rt.Go(func() {
		json.NewEncoder(__rt.PipeWriterValue(pw)).Encode(1)
		__rt.PipeWriterCloseWithError(pw, fmt.Errorf("done"), __rtSites_48db876e+2)
	}, __rtSites_48db876e+1)
	io.ReadAll(__rt.PipeReaderValue(pr))
	__rt.Read(&io.Discard, __rtSites_48db876e+11); io.Copy(io.Discard, __rt.PipeReaderValue((pr)))
	var r io.Reader = __rt.PipeReaderValue(pr)
	r = __rt.PipeReaderValue(pr)
	var keep *io.PipeReader = pr
	s := sink{w: __rt.PipeWriterValue(pw), pw: pw, rest: []io.Reader{__rt.PipeReaderValue(pr), strings.NewReader("")}}
	_ = sink{__rt.PipeWriterValue(pw), pw, nil}
	m := map[string]io.Writer{"p": __rt.PipeWriterValue(pw)}
	ch := __rt.MakeChan[io.Reader](1, __rtSites_48db876e+3)
	__rt.Send[io.Reader](ch, __rt.PipeReaderValue(pr), __rtSites_48db876e+4)
	cmd := exec.Command("cat")
	__rt.Write(&cmd.Stdin, __rtSites_48db876e+12); cmd.Stdin = __rt.PipeReaderValue(pr)
	buf := make([]byte, 4)
	__rt.PipeReaderRead(pr, buf, __rtSites_48db876e+5)
	__rt.PipeWriterWrite(pw, buf, __rtSites_48db876e+6)
	read := func(__rtRecv1 *io.PipeReader) func(data []byte) (n int, err error) { return func(__rtP2 []byte) (int, error) { return __rt.PipeReaderRead(__rtRecv1, __rtP2, __rtSites_48db876e+7) } }(pr)
	_ = read
	w := io.MultiWriter(__rt.PipeWriterValue(pw), __rt.PipeWriterValue(pw))
	_ = any(pr)
	_ = io.Reader(__rt.PipeReaderValue(pr))
	fmt.Println(pr, pw)
	defer __rt.PipeReaderClose(pr, __rtSites_48db876e+8)
	_, _, _, _, _, _ = r, keep, s, m, w, cmd

	c1, c2 := __rt.NetPipe(__rtSites_48db876e+9)
	__rt.ReadRecv(c1, "Write", __rtSites_48db876e+13); c1.Write(buf)
	__rt.ReadRecv(c2, "Read", __rtSites_48db876e+14); c2.Read(buf)
}

type wrapped struct{ net.Conn }

func deadlines(c net.Conn, tc *net.TCPConn, w *wrapped, f *os.File) {
	d := __rt.Now(__rtSites_48db876e+10).Add(time.Second)
	__rt.ReadRecv(c, "SetDeadline", __rtSites_48db876e+15); __rt.SetDeadline(c, d)
	__rt.SetReadDeadline(tc, d)
	__rt.SetWriteDeadline(w.Conn, d)
	__rt.SetDeadline(f, d)
	__rt.SetDeadline(tls.Client(c, nil), d)
	_ = c.SetDeadline
}

var __rtSites_48db876e = __rt.RegisterFile("testdata/pipes.go", "\n\n\nc*ch\nc*ch\n\n\n\n\n\n\nv*io.Discard\nv*cmd.Stdin\nv*c1\nv*c2\nv*c", 26, 12, 27, 2, 29, 3, 39, 8, 40, 5, 44, 2, 45, 2, 46, 10, 52, 8, 55, 12, 63, 7, 32, 10, 42, 2, 56, 5, 57, 5, 64, 4)
