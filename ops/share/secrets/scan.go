package secrets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/companion"
)

// Blob is one file version a push would send: the session and commit that
// add it, the path, its content as stored, and the lines of it the commit
// adds (1-based, inclusive ranges, from `git diff-tree -p -U0` hunk headers).
// Added nil means every line is new (a file the commit creates).
type Blob struct {
	Session, Commit, Path string
	Content               []byte
	Added                 []LineRange
}

// LineRange is a 1-based, inclusive range of lines.
type LineRange struct{ First, Last int }

// Message is a commit message a push would send (agents' shell commands end up there).
type Message struct{ Session, Commit, Text string }

// Finding is one secret found. Path is "" for a finding in a commit message;
// Line is 1-based in the file (or the message). Fingerprint is
// "<commit>:<path>:<rule>:<line>" for a file and "<commit>::<rule>:<line>" for a message;
// it is what --allow-secret takes.
type Finding struct {
	Session, Commit, Path string
	Line                  int
	Rule, Description     string
	Fingerprint           string
}

// ProtocolVersion is the version of the request and response that git-edit
// and git-edit-secrets exchange. Both carry it, and each side refuses the
// other's message of another version: a git-edit-secrets from another
// version of git-edit (or any program of that name) must never make a
// push go out unscanned by answering what reads as "no findings". Change
// it whenever Request, Response or what the scan means changes.
const ProtocolVersion = 1

// Request is what Scan writes, as JSON, to the standard input of the
// companion git-edit-secrets, which then reads it to its end. Version is
// ProtocolVersion.
type Request struct {
	Version  int
	Blobs    []Blob
	Messages []Message
}

// Response is the companion's answer on its standard output: Version is
// the companion's ProtocolVersion, always set; Scanned is what it scanned;
// Findings the secrets found (Scan's result), or Error, the message of a
// scan that failed or of a request it refused.
type Response struct {
	Version  int
	Scanned  Scanned
	Findings []Finding `json:",omitempty"`
	Error    string    `json:",omitempty"`
}

// Scanned counts what a scan went through: the blobs and their bytes of
// content, the messages and their bytes of text. Scan checks it against
// what it sent, so that a companion that skipped part of a request (read
// a field under another name, say) is caught. MessageBytes counts a
// message's text as JSON carries it, where each byte that is not UTF-8
// becomes U+FFFD (3 bytes).
type Scanned struct {
	Blobs        int
	BlobBytes    int64
	Messages     int
	MessageBytes int64
}

// String says n for a message: "2 blobs (120 bytes) and 1 messages (9 bytes)".
func (n Scanned) String() string {
	return fmt.Sprintf("%d blobs (%d bytes) and %d messages (%d bytes)", n.Blobs, n.BlobBytes, n.Messages, n.MessageBytes)
}

// Count returns what a scan of blobs and messages goes through, as
// Scanned counts it.
func Count(blobs []Blob, messages []Message) Scanned {
	n := Scanned{Blobs: len(blobs), Messages: len(messages)}
	for _, b := range blobs {
		n.BlobBytes += int64(len(b.Content))
	}
	for _, m := range messages {
		n.MessageBytes += jsonTextLen(m.Text)
	}
	return n
}

// jsonTextLen is the length of s once it has gone through JSON, which
// (encoding/json) replaces each byte that is not part of UTF-8 by U+FFFD.
func jsonTextLen(s string) int64 {
	var n int64
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += int64(utf8.RuneLen(utf8.RuneError))
		} else {
			n += int64(size)
		}
		i += size
	}
	return n
}

// Reinstall is what to do when git-edit and git-edit-secrets do not
// understand each other, said in both programs' refusals.
const Reinstall = "git-edit and git-edit-secrets must come from the same version of git-edit: install both from the same checkout (" + companion.Install + ")"

// EnvDeadline is the environment variable that sets how long Scan waits
// for git-edit-secrets, as a Go duration ("30m", "2h"), in place of the
// deadline Deadline computes. It is for a push too large for the computed
// deadline on a slow machine; it is not needed otherwise.
const EnvDeadline = "GIT_EDIT_SECRETS_TIMEOUT"

// The computed deadline of a scan: deadlineBase, plus deadlinePerMiB for
// each MiB of content and message text. Both are far above what a scan
// takes, so that only a companion that hangs reaches them: gitleaks' default
// rules scan ordinary source at about 2 MiB a second (one core of a 2-core
// machine), and the worst content measured (lines of random base64, each a
// generic-api-key finding, decoded 5 rounds deep) at 7 seconds a MiB for a
// 1 MiB file, 11 for 4 MiB and 40 for 16 MiB (the cost grows faster than
// the size, so a larger file of that kind may need EnvDeadline); the base
// covers building the detector (under a second) and a loaded machine.
const (
	deadlineBase   = 10 * time.Minute
	deadlinePerMiB = 2 * time.Minute
)

// waitDelay is how long Wait waits, once the companion has ended, for its
// standard output and error to close; then it closes them. Only a process
// the companion started and left running holds them open longer.
const waitDelay = 2 * time.Second

// Deadline returns how long Scan waits for git-edit-secrets to answer a
// request of size sent before it kills it and fails: the value of
// $GIT_EDIT_SECRETS_TIMEOUT (EnvDeadline) when it is set and not empty,
// else 10 minutes plus 2 minutes for each MiB of content and message text.
// A value that is not a positive Go duration is an error saying so.
func Deadline(sent Scanned) (time.Duration, error) {
	if v := os.Getenv(EnvDeadline); v != "" {
		d, err := time.ParseDuration(v)
		if err == nil && d <= 0 {
			err = errors.New("not positive")
		}
		if err != nil {
			return 0, fmt.Errorf("%s=%s is not a time to wait for the secret scan: %w; set it to a Go duration such as 30m or 2h, or unset it for the default (10m, plus 2m a MiB sent)", EnvDeadline, v, err)
		}
		return d, nil
	}
	mib := float64(sent.BlobBytes+sent.MessageBytes) / (1 << 20)
	return deadlineBase + time.Duration(mib*float64(deadlinePerMiB)), nil
}

// warm is a companion started ahead of its request by Warm, not yet taken
// by a Scan; nil when there is none.
var (
	warmMu sync.Mutex
	warm   *process
)

// process is a running git-edit-secrets waiting for its request.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout boundedBuffer
	stderr boundedBuffer
}

// The most of the companion's standard output and error kept. An answer is
// a few hundred bytes a finding, so maxAnswer holds over 200,000 of them;
// a companion that writes more is killed at once, as broken, rather than
// let fill this process's memory until the deadline. Standard error past
// maxStderr is dropped (only its start goes into a message).
const (
	maxAnswer = 64 << 20
	maxStderr = 64 << 10
)

// boundedBuffer keeps what is written to it, in buf, up to max bytes. Past
// that it drops the rest, notes it (over), and calls full once, if set:
// writes still succeed, so that the writer is never blocked on its pipe.
// (buf is a field, not embedded: an embedded bytes.Buffer's ReadFrom would
// let io.Copy, which exec uses, write around the bound.)
type boundedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
	full func()
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		if !b.over && b.full != nil {
			b.full()
		}
		b.over = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

// start starts the companion, which begins building its detector at once.
func start() (*process, error) {
	path, err := companion.Find(companion.Secrets)
	if err != nil {
		return nil, fmt.Errorf("the secret scan before a push runs in a program of its own: %w", err)
	}
	p := &process{cmd: exec.Command(path)}
	p.stdout.max, p.stderr.max = maxAnswer, maxStderr
	p.stdout.full = func() { p.cmd.Process.Kill() }
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	// A process the companion started may hold its standard output open
	// after the companion ended (or was killed): Wait would wait for it.
	p.cmd.WaitDelay = waitDelay
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("%s: %w", companion.Secrets, err)
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return p, nil
}

// Warm starts the companion git-edit-secrets in the background, where it
// builds gitleaks' detector (hundreds of regular expressions), so that a
// caller that will Scan after slower work (asking a server what it has) does
// not wait for it then. One started companion is kept for the next Scan;
// calling Warm again while it waits does nothing. A companion no Scan takes
// ends when this process does (its standard input closes). Calling Warm
// never is fine; a companion that cannot be started is Scan's to report.
func Warm() {
	warmMu.Lock()
	defer warmMu.Unlock()
	if warm != nil {
		return
	}
	if p, err := start(); err == nil {
		warm = p
	}
}

// Scan returns the secrets in blobs and messages, in a stable order
// (session, commit, path, line, rule). Each blob is scanned whole, so that a
// key written over two edits is seen; a finding counts only when its line span
// meets an added line of that blob. Binary content is skipped, except UTF-16
// text (with BOM, or detectably UTF-16LE/BE), which is decoded first.
// Cancelled ctx ends it with ctx.Err().
//
// A blob's Path is given to the detector, so gitleaks' default path
// allowlist (go.sum, lock files, images, vendored code...) applies to it,
// and so do its rules on the path alone (a PKCS#12 file, .p12 or .pfx):
// such a finding is at line 1 and counts whatever Added says, binary
// content included, since the whole file is the secret. A non-nil, empty
// Added means the commit adds no line of the blob, so nothing else in it
// counts. Identical findings are reported once.
//
// The scan runs in the companion program git-edit-secrets (see package
// companion for where it is found; package scanner is the scan itself),
// which takes the request as JSON on its standard input and answers on its
// standard output. Scan fails, and a push is never sent unchecked, when
// the companion is missing (the error says which program and how to
// install it), when its answer is not a Response of ProtocolVersion whose
// Scanned equals Count(blobs, messages), and when it does not answer
// within the deadline (see Deadline; it is then killed).
//
// The request is written as it is encoded, never whole in memory: a push
// of large files would otherwise hold them twice more (once as base64).
func Scan(ctx context.Context, blobs []Blob, messages []Message) ([]Finding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sent := Count(blobs, messages)
	limit, err := Deadline(sent)
	if err != nil {
		return nil, err
	}
	warmMu.Lock()
	p := warm
	warm = nil
	warmMu.Unlock()
	if p == nil {
		if p, err = start(); err != nil {
			return nil, err
		}
	}
	// late is set only when the deadline kills a companion still running:
	// one that ended just before the timer fired answered in time.
	var late atomic.Bool
	timer := time.AfterFunc(limit, func() {
		if p.cmd.Process.Kill() == nil {
			late.Store(true)
		}
	})
	stop := context.AfterFunc(ctx, func() { p.cmd.Process.Kill() })
	defer stop()
	// The request is written while Wait waits: the companion reads it all
	// before it writes anything, and exec's goroutines collect its stdout
	// and stderr meanwhile, so neither side waits on the other. A companion
	// that stops reading is killed (deadline, ctx); Wait then closes the
	// pipe, which ends the write even if a process the companion started
	// holds the pipe's other end.
	written := make(chan error, 1)
	go func() {
		err := writeRequest(ctx, p.stdin, blobs, messages)
		written <- errors.Join(err, p.stdin.Close())
	}()
	err = p.cmd.Wait()
	timer.Stop()
	werr := <-written
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	if late.Load() {
		return nil, fmt.Errorf("%s did not answer in %v, so it was stopped; a scan of this size takes far less. "+
			"If that program is not git-edit's own, or not from the same checkout as git-edit, reinstall both (%s); "+
			"if it is and this machine is that slow, set %s to a longer time (such as %s=2h); otherwise report the hang",
			p.cmd.Path, limit, companion.Install, EnvDeadline, EnvDeadline)
	}
	if p.stdout.over {
		return nil, fmt.Errorf("%s answered more than %d MiB, so it was stopped: that is no answer of git-edit's scanner; %s", p.cmd.Path, maxAnswer>>20, Reinstall)
	}
	if err != nil {
		return nil, fmt.Errorf("%s failed: %w%s", p.cmd.Path, err, said(&p.stderr.buf))
	}
	if werr != nil {
		return nil, fmt.Errorf("%s: writing the request: %w", p.cmd.Path, werr)
	}
	return readResponse(p.cmd.Path, &p.stdout.buf, &p.stderr.buf, sent)
}

// readResponse returns the findings of the companion at path's answer,
// out, checked: a Response of ProtocolVersion, alone, that scanned what
// was sent.
func readResponse(path string, out, stderr *bytes.Buffer, sent Scanned) ([]Finding, error) {
	dec := json.NewDecoder(out)
	dec.DisallowUnknownFields()
	var resp Response
	err := dec.Decode(&resp)
	if err == nil {
		if _, terr := dec.Token(); !errors.Is(terr, io.EOF) {
			err = errors.New("data after the response")
		}
	}
	// A version other than ours is reported as such, even when the rest
	// did not decode: the fix is the same.
	if resp.Version != ProtocolVersion && (err == nil || resp.Version != 0) {
		return nil, fmt.Errorf("%s answered in protocol version %d, but this git-edit speaks version %d "+
			"(version 0 is an answer without one, such as null: an older git-edit-secrets, or a program that is not git-edit's): %s",
			path, resp.Version, ProtocolVersion, Reinstall)
	}
	if err != nil {
		return nil, fmt.Errorf("%s answered what is not a response: %w%s; %s", path, err, said(stderr), Reinstall)
	}
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	if resp.Scanned != sent {
		return nil, fmt.Errorf("%s scanned %s, but was sent %s: it skipped part of what the push would send; %s",
			path, resp.Scanned, sent, Reinstall)
	}
	return resp.Findings, nil
}

// said is what the companion wrote on its standard error, as the end of a
// message ("" when it wrote nothing).
func said(stderr *bytes.Buffer) string {
	if s := strings.TrimSpace(stderr.String()); s != "" {
		return ": " + s
	}
	return ""
}
