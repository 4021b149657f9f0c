package repo

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
)

// smudger keeps one `git cat-file --batch --filters` process per
// repository, so that a warm MCP server pays no process start per
// conversion. Requests are "<blob> <path>" lines.
//
// The size git prints in the header is the blob's, not the filtered
// content's (git 2.39 at least), so it cannot delimit the answer. Each
// request is therefore followed by a line naming a random object id that
// does not exist, which git answers with "<id> missing": the answer's
// content ends right before it. Content cannot forge that line: the id is
// chosen after the content exists, from 160 random bits.
type smudger struct {
	mu     sync.Mutex
	key    string
	cmd    *exec.Cmd
	in     io.WriteCloser
	pipe   io.ReadCloser // under out
	out    *bufio.Reader
	stderr *tailBuffer
}

// stderrTail is how much of a process's standard error a tailBuffer
// keeps: enough for git's and a filter's last messages, while a filter
// that writes without end costs no memory and floods no error message.
const stderrTail = 4096

// tailBuffer keeps the last stderrTail bytes a process wrote to standard
// error, and whether earlier ones were dropped.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	cut bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= stderrTail {
		t.cut = t.cut || len(p) > stderrTail || len(t.buf) > 0
		t.buf = append(t.buf[:0], p[len(p)-stderrTail:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - stderrTail; over > 0 {
		// Shift in place: the buffer never grows past stderrTail.
		t.buf = t.buf[:copy(t.buf, t.buf[over:])]
		t.cut = true
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// String is the kept tail, trimmed, starting with "…" when earlier bytes
// were dropped (at a UTF-8 character boundary, so that the message stays
// valid text).
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if !t.cut {
		return strings.TrimSpace(string(b))
	}
	for i := 0; i < len(b) && i < utf8.UTFMax && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return "…" + strings.TrimSpace(string(b))
}

// smudge answers one request, starting the process if none runs for key.
// A path that cannot be written on one request line (a newline in it, or
// leading blanks, which git strips) runs a process of its own.
//
// When ctx ends first, the process and the filters it runs are killed, and
// the error wraps ctx.Err(); the next request starts a new process.
func (s *smudger) smudge(ctx context.Context, r *Repo, key, rel string, blob plumbing.Hash) ([]byte, error) {
	if strings.ContainsAny(rel, "\n\r") || strings.TrimLeft(rel, " \t") != rel {
		return smudgeOnce(ctx, r, rel, blob)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConversion, rel, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil && s.key != key {
		s.stop()
	}
	if s.cmd == nil {
		if err := s.start(r, key); err != nil {
			return nil, err
		}
	}
	// A filter that never answers leaves request blocked on the pipe:
	// killing the group and closing the pipe ends the read.
	cmd, pipe := s.cmd, s.pipe
	stopKill := context.AfterFunc(ctx, func() {
		_ = killGroup(cmd)
		pipe.Close()
	})
	b, err := s.request(rel, blob)
	if !stopKill() {
		err = fmt.Errorf("%w: %s: git cat-file --filters (the smudge filter) did not finish in time, and was stopped: %w; check the filter with `git checkout -- %s`", ErrConversion, rel, ctx.Err(), rel)
		b = nil
	}
	if err != nil {
		// The process may be dead, out of step or still writing (which
		// would block its exit on a pipe nobody reads): kill it, and the
		// next request starts a new one.
		_ = killGroup(s.cmd)
		s.stop()
	}
	return b, err
}

func (s *smudger) start(r *Repo, key string) error {
	// Not bound to one operation's context: the process outlives it.
	cmd := r.gitCommand(context.Background(), "cat-file", "--batch", "--filters")
	ownGroup(cmd)
	cmd.WaitDelay = time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("%w: start git cat-file: %w", ErrConversion, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("%w: start git cat-file: %w", ErrConversion, err)
	}
	s.stderr = &tailBuffer{}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: start git cat-file: %w", ErrConversion, err)
	}
	s.cmd, s.in, s.pipe, s.out, s.key = cmd, in, out, bufio.NewReaderSize(out, 64<<10), key
	return nil
}

// stop ends the process (closing its input makes cat-file exit) and waits
// for it.
func (s *smudger) stop() {
	if s.cmd == nil {
		return
	}
	s.in.Close()
	_ = s.cmd.Wait()
	s.cmd, s.in, s.pipe, s.out = nil, nil, nil, nil
}

func (s *smudger) request(rel string, blob plumbing.Hash) ([]byte, error) {
	var nonce [20]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	sentinel := hex.EncodeToString(nonce[:])
	fail := func(err error) ([]byte, error) {
		msg := s.stderr.String()
		if msg != "" {
			msg = ": " + msg
		}
		return nil, fmt.Errorf("%w: %s: git cat-file --filters: %w%s; `git checkout -- %s` shows the same error: fix the filter or the attributes", ErrConversion, rel, err, msg, rel)
	}
	if _, err := fmt.Fprintf(s.in, "%s %s\n%s\n", blob, rel, sentinel); err != nil {
		return fail(err)
	}
	header, err := s.out.ReadString('\n')
	if err != nil {
		return fail(err)
	}
	if strings.HasSuffix(header, " missing\n") {
		// Read the sentinel's answer too, keeping the process in step.
		if _, err := s.out.ReadString('\n'); err != nil {
			return fail(err)
		}
		return nil, fmt.Errorf("smudge %s: blob %s: %w", rel, blob, plumbing.ErrObjectNotFound)
	}
	if f := strings.Fields(header); len(f) != 3 || f[0] != blob.String() || f[1] != "blob" {
		return fail(fmt.Errorf("unexpected answer %q", strings.TrimSpace(header)))
	}
	end := []byte("\n" + sentinel + " missing\n")
	var buf []byte
	chunk := make([]byte, 64<<10)
	for !bytes.HasSuffix(buf, end) {
		n, err := s.out.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if err != nil && !bytes.HasSuffix(buf, end) {
			return fail(err)
		}
	}
	return buf[:len(buf)-len(end)], nil
}

// smudgeOnce runs `git cat-file --filters --path=rel blob`: one process.
func smudgeOnce(ctx context.Context, r *Repo, rel string, blob plumbing.Hash) ([]byte, error) {
	cmd := r.gitCommand(ctx, "cat-file", "--filters", "--path="+rel, blob.String())
	boundBy(cmd)
	var out bytes.Buffer
	stderr := &tailBuffer{}
	cmd.Stdout, cmd.Stderr = &out, stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: %s: git cat-file --filters: %w: %s", ErrConversion, rel, err, stderr.String())
	}
	return out.Bytes(), nil
}

// Close stops the processes the repository keeps running for conversions
// (see Conversions.Smudge). The repository stays usable: a later
// conversion starts a new one.
func (r *Repo) Close() error {
	r.smudger.mu.Lock()
	defer r.smudger.mu.Unlock()
	r.smudger.stop()
	return nil
}
