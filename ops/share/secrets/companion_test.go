//go:build unix

package secrets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops/companion"
)

// These tests put a fake git-edit-secrets, a shell script, where Scan
// looks for the companion ($GIT_EDIT_EXEC_PATH), to play a companion of
// another version, one that skips part of a request, one that hangs.

// fakeCompanion makes script (the body of a shell script) the
// git-edit-secrets Scan runs, and returns its path.
func fakeCompanion(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, companion.Secrets)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(companion.EnvExecPath, dir)
	return p
}

// answering is the script of a fake companion that reads the request, then
// writes answer.
func answering(answer string) string {
	return "cat >/dev/null\nprintf '%s\\n' '" + answer + "'"
}

// keyBlob is a blob that adds an AWS key.
func keyBlob() []Blob {
	return []Blob{{Session: "s", Commit: "c1", Path: "conf.py", Content: []byte("aws_access_key_id = \"" + awsKey(5) + "\"\n")}}
}

// A companion whose answer is not a Response of this protocol version, or
// is one that did not scan all that was sent, makes Scan refuse, saying
// which program answered what and how to install matching programs: an
// answer that merely decodes to "no findings" (null, {}, an older
// companion's) must not let a key through.
func TestAttackScanRefusesAnAnswerNotOfItsProtocol(t *testing.T) {
	blobs := keyBlob()
	messages := []Message{{Session: "s", Commit: "c1", Text: "add conf\n"}}
	sent := Count(blobs, messages)
	v := ProtocolVersion
	scanned := func(n Scanned) string {
		return fmt.Sprintf(`"Scanned":{"Blobs":%d,"BlobBytes":%d,"Messages":%d,"MessageBytes":%d}`, n.Blobs, n.BlobBytes, n.Messages, n.MessageBytes)
	}
	tests := []struct{ name, answer, says string }{
		{"null", `null`, "protocol version 0"},
		{"empty object", `{}`, "protocol version 0"},
		{"an older companion's answer", `{"Findings":[]}`, "protocol version 0"},
		{"another version", fmt.Sprintf(`{"Version":%d,%s}`, v+1, scanned(sent)), fmt.Sprintf("protocol version %d", v+1)},
		{"another version with fields unknown here", fmt.Sprintf(`{"Version":%d,"Verdict":"clean"}`, v+1), fmt.Sprintf("protocol version %d", v+1)},
		{"a field unknown in this version", fmt.Sprintf(`{"Version":%d,%s,"Verdict":"clean"}`, v, scanned(sent)), "not a response"},
		{"two answers", fmt.Sprintf(`{"Version":%d,%s} {}`, v, scanned(sent)), "not a response"},
		{"nothing", ``, "not a response"},
		{"nothing scanned", fmt.Sprintf(`{"Version":%d}`, v), "skipped part"},
		{"a blob not scanned", fmt.Sprintf(`{"Version":%d,%s}`, v, scanned(Scanned{Blobs: 0, BlobBytes: 0, Messages: 1, MessageBytes: sent.MessageBytes})), "skipped part"},
		{"content not scanned", fmt.Sprintf(`{"Version":%d,%s}`, v, scanned(Scanned{Blobs: 1, BlobBytes: 0, Messages: 1, MessageBytes: sent.MessageBytes})), "skipped part"},
		{"messages not scanned", fmt.Sprintf(`{"Version":%d,%s}`, v, scanned(Scanned{Blobs: 1, BlobBytes: sent.BlobBytes})), "skipped part"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := fakeCompanion(t, answering(tc.answer))
			found, err := Scan(context.Background(), blobs, messages)
			if err == nil {
				t.Fatalf("Scan took the answer %s: findings %+v; want it refused", tc.answer, found)
			}
			for _, part := range []string{path, tc.says, "same checkout", "go install ./cmd/..."} {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("the refusal does not say %q: %v", part, err)
				}
			}
		})
	}

	// The same fake, answering as the protocol wants, is taken: the
	// refusals above are about the answers, not the fake.
	fakeCompanion(t, answering(fmt.Sprintf(`{"Version":%d,%s}`, v, scanned(sent))))
	if found, err := Scan(context.Background(), blobs, messages); err != nil || len(found) != 0 {
		t.Fatalf("Scan of a fake answering in the protocol: %+v, %v; want no findings", found, err)
	}
}

// A message with bytes that are not UTF-8 (a commit message in Latin-1)
// is counted as the companion receives it, so the real companion's answer
// is taken, and a key in it found.
func TestScanCountsMessagesAsSent(t *testing.T) {
	text := "caf\xe9 \xff\xfe\n\nkey " + awsKey(6) + "\n"
	if n := Count(nil, []Message{{Text: text}}).MessageBytes; n != int64(len(text))+6 {
		t.Fatalf("Count of a message with 3 bytes not UTF-8: %d bytes; want %d (each becomes U+FFFD, 3 bytes)", n, len(text)+6)
	}
	found, err := Scan(context.Background(), nil, []Message{{Session: "s", Commit: "c", Text: text}})
	if err != nil || len(found) != 1 || found[0].Line != 3 {
		t.Fatalf("Scan of a message not UTF-8: %+v, %v; want the key at line 3", found, err)
	}
}

// scanWithin runs Scan, and fails the test rather than hang with it when
// it has not returned after a minute (which is no measure of speed: Scan
// returns in well under a second here, or never).
func scanWithin(t *testing.T, ctx context.Context, blobs []Blob) ([]Finding, error) {
	t.Helper()
	type result struct {
		found []Finding
		err   error
	}
	done := make(chan result, 1)
	go func() {
		found, err := Scan(ctx, blobs, nil)
		done <- result{found, err}
	}()
	select {
	case r := <-done:
		return r.found, r.err
	case <-time.After(time.Minute):
		t.Fatal("Scan has not returned after a minute: it waits for a companion that will never answer")
		return nil, nil
	}
}

// largeBlob is a blob larger than a pipe's buffer, so that writing the
// request blocks until the companion reads it.
func largeBlob() []Blob {
	return []Blob{{Session: "s", Commit: "c", Path: "big.txt", Content: []byte(strings.Repeat("x = 1\n", 1<<20/6))}}
}

// killLater kills, at the end of the test, the process whose id the fake
// companion wrote to pidFile.
func killLater(t *testing.T, pidFile string) {
	t.Cleanup(func() {
		data, err := os.ReadFile(pidFile)
		if err != nil {
			t.Errorf("the fake companion wrote no process id: %v", err)
			return
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// A companion that never answers is killed at the deadline (here set
// short through $GIT_EDIT_SECRETS_TIMEOUT), and Scan fails naming it, the
// time it waited and what to do, also when a process the companion
// started holds its standard input and output open (Wait would wait for
// it; the write of a request larger than the pipe would never end), and
// when the companion answered but left such a process behind.
func TestAttackScanDoesNotWaitForAHungCompanion(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	tests := []struct {
		name, script string
		deadline     string
		says         []string
		leavesChild  bool
	}{
		{"sleeps", "exec sleep 3600", "300ms",
			[]string{"did not answer in 300ms", "so it was stopped", EnvDeadline}, false},
		{"sleeps, its child holding stdin and stdout", "sleep 3600 &\necho $! > '" + pidFile + "'\nexec sleep 3600", "300ms",
			[]string{"did not answer in 300ms", "so it was stopped", EnvDeadline}, true},
		{"answers, its child holding stdout", "cat >/dev/null\nsleep 3600 &\necho $! > '" + pidFile + "'\n" +
			fmt.Sprintf(`printf '%%s\n' '{"Version":%d}'`, ProtocolVersion), "1h",
			[]string{"failed", "WaitDelay"}, true},
		// Output without end would fill this process's memory until the
		// deadline: the companion is stopped at the bound instead.
		{"answers without end", "cat >/dev/null\nexec yes '{}'", "1h",
			[]string{"answered more than 64 MiB", "so it was stopped", "same checkout"}, false},
		{"writes its standard error without end", "cat >/dev/null\nexec yes 'an error line' >&2", "2s",
			[]string{"did not answer in 2s"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(pidFile)
			path := fakeCompanion(t, tc.script)
			if tc.leavesChild {
				killLater(t, pidFile)
			}
			t.Setenv(EnvDeadline, tc.deadline)
			found, err := scanWithin(t, context.Background(), largeBlob())
			if err == nil {
				t.Fatalf("Scan with a companion that %s: %+v; want it refused", tc.name, found)
			}
			if len(err.Error()) > 1<<20 {
				t.Fatalf("the refusal is %d bytes long: the companion's output is not bounded", len(err.Error()))
			}
			for _, part := range append([]string{path}, tc.says...) {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("the refusal does not say %q: %v", part, err)
				}
			}
		})
	}
}

// Cancelling ctx while the companion hangs (and a process it started holds
// the request's pipe) ends Scan with ctx's error.
func TestScanCancelledWhileTheCompanionHangs(t *testing.T) {
	dir := t.TempDir()
	pidFile, started := filepath.Join(dir, "pid"), filepath.Join(dir, "started")
	fakeCompanion(t, "sleep 3600 &\necho $! > '"+pidFile+"'\ntouch '"+started+"'\nexec sleep 3600")
	killLater(t, pidFile)
	t.Setenv(EnvDeadline, "1h")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancelled once the companion runs, so that the cancellation
		// ends a running scan, not one yet to start.
		for {
			if _, err := os.Stat(started); err == nil {
				break
			}
			runtime.Gosched()
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	found, err := scanWithin(t, ctx, largeBlob())
	if !errors.Is(err, context.Canceled) || found != nil {
		t.Fatalf("Scan cancelled while the companion hangs: %+v, %v; want context.Canceled", found, err)
	}
}

// The deadline is $GIT_EDIT_SECRETS_TIMEOUT when set, else grows with
// what is sent; a value that is not a positive duration makes Scan refuse
// before it starts anything, saying what to set.
func TestDeadline(t *testing.T) {
	t.Setenv(EnvDeadline, "")
	small, _ := Deadline(Scanned{})
	large, _ := Deadline(Scanned{BlobBytes: 64 << 20, MessageBytes: 1 << 20})
	if small != deadlineBase || large != deadlineBase+65*deadlinePerMiB {
		t.Errorf("Deadline without %s: %v for nothing, %v for 65 MiB; want %v and %v", EnvDeadline, small, large, deadlineBase, deadlineBase+65*deadlinePerMiB)
	}
	t.Setenv(EnvDeadline, "90s")
	if d, err := Deadline(Scanned{BlobBytes: 64 << 20}); err != nil || d != 90*time.Second {
		t.Errorf("Deadline with %s=90s: %v, %v", EnvDeadline, d, err)
	}
	for _, bad := range []string{"10", "soon", "0s", "-1m"} {
		t.Setenv(EnvDeadline, bad)
		_, err := Scan(context.Background(), keyBlob(), nil)
		if err == nil {
			t.Errorf("Scan with %s=%s: no error", EnvDeadline, bad)
			continue
		}
		for _, part := range []string{EnvDeadline + "=" + bad, "such as 30m"} {
			if !strings.Contains(err.Error(), part) {
				t.Errorf("the refusal does not say %q: %v", part, err)
			}
		}
	}
}

// Scan writes the request as it encodes it: a 32 MiB blob is not held a
// second time, base64-encoded (43 MiB), as building the request whole
// would. TotalAlloc counts every byte allocated meanwhile, by any
// goroutine, so the bound is loose: well below one copy of the blob.
func TestScanStreamsTheRequest(t *testing.T) {
	blobs := []Blob{{Session: "s", Commit: "c", Path: "big.txt", Content: bytes.Repeat([]byte("x = 123\n"), 32<<20/8)}}
	sent := Count(blobs, nil)
	fakeCompanion(t, answering(fmt.Sprintf(`{"Version":%d,"Scanned":{"Blobs":1,"BlobBytes":%d}}`, ProtocolVersion, sent.BlobBytes)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	found, err := Scan(context.Background(), blobs, nil)
	runtime.ReadMemStats(&after)
	if err != nil || len(found) != 0 {
		t.Fatalf("Scan: %+v, %v", found, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(sent.BlobBytes)/4 {
		t.Fatalf("Scan of a %d MiB blob allocated %d MiB; want under %d MiB (the request streamed)", sent.BlobBytes>>20, alloc>>20, sent.BlobBytes>>22)
	}
}
