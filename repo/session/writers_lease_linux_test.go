// Linux's read leases only (O_PATH, /proc/self/fd, a writer refused by the
// lease): the gitedit_portable build has no leases, so the guarantee this
// file tests does not exist there; the window it leaves is asserted by
// TestAttackShellAppendAcrossTheSwapIsKept instead.

//go:build !gitedit_portable

package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"golang.org/x/sys/unix"
)

// Linux only: the test breaks git-edit's read lease through O_PATH and
// /proc/self/fd.

// TestAttackWriterOpeningDuringTheSwapIsKept opens the file for writing
// after git-edit took its lease and before the swap, through a handle
// resolved before the swap (as an open(2) that found the name first
// does): the open waits for git-edit, which sees the lease broken and
// puts the file back, so the write lands in the file at the name. With
// the swap without exchange it also opens the file moved aside after the
// new file is renamed in ("swapped-in"): the last proof sees the lease
// broken and git-edit undoes both renames.
func TestAttackWriterOpeningDuringTheSwapIsKept(t *testing.T) {
	for _, c := range []struct {
		del, noExchange bool
		point           string
	}{{false, false, "leased"}, {true, false, "leased"}, {false, true, "leased"}, {false, true, "swapped-in"}} {
		name := fmt.Sprintf("delete=%v", c.del)
		if c.noExchange {
			name += "/no-exchange/" + c.point
		}
		t.Run(name, func(t *testing.T) {
			del := c.del
			defer repo.SetNoExchange(c.noExchange)()
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
			r, s := open(t, dir, "s")
			file := filepath.Join(dir, "f.txt")
			var wg sync.WaitGroup
			hits := 0
			restore := repo.SetPauseHook(func(at, _ string) {
				if at != c.point || hits > 0 {
					return
				}
				hits++
				old := file
				if at == "swapped-in" {
					// The file checked is aside now; the new one at the name.
					aside, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-*"))
					if len(aside) != 1 {
						t.Errorf("at \"swapped-in\": %q beside f.txt, want the file moved aside", aside)
						return
					}
					old = aside[0]
				}
				h, err := syscall.Open(old, unix.O_PATH|syscall.O_CLOEXEC, 0)
				if err != nil {
					t.Error(err)
					return
				}
				inode := fmt.Sprintf("/proc/self/fd/%d", h)
				// Deterministically break the lease, then open for real.
				if fd, err := syscall.Open(inode, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_NONBLOCK, 0); !errors.Is(err, syscall.EWOULDBLOCK) {
					if err == nil {
						syscall.Close(fd)
					}
					t.Errorf("a non-blocking open for writing under git-edit's lease gave %v, want EWOULDBLOCK", err)
					syscall.Close(h)
					return
				}
				wg.Add(1)
				opening := make(chan struct{})
				go func() {
					defer wg.Done()
					defer syscall.Close(h)
					close(opening)
					f, err := os.OpenFile(inode, os.O_WRONLY|os.O_APPEND, 0)
					if err != nil {
						t.Error(err)
						return
					}
					defer f.Close()
					if _, err := f.WriteString("person\n"); err != nil {
						t.Error(err)
					}
				}()
				// The open must be waiting in the kernel before git-edit
				// goes on, as a program's open(2) that found the name first
				// is: a goroutine not yet run would open the file only
				// after the edit, through a handle no program has.
				<-opening
				waitForBlockedWriter(t, h)
			})
			_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", del))
			restore()
			wg.Wait()
			if hits != 1 {
				t.Fatalf("pause point %q reached %d times", c.point, hits)
			}
			if err != nil {
				t.Fatalf("the edit failed instead of starting over: %v", err)
			}
			checkPersonsLine(t, dir, del)
		})
	}
}

// waitForBlockedWriter returns once an open(2) for writing of the file
// behind handle h waits for a lease on it to be released: /proc/locks then
// lists it as the lease's breaker ("N: -> LEASE  BREAKER ...") under the
// lease ("N: LEASE ... MAJ:MIN:INODE ..."; the inode is matched alone, as
// the device there is the superblock's, which stat may not give). It fails
// the test after 30 s.
func waitForBlockedWriter(t *testing.T, h int) {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Fstat(h, &st); err != nil {
		t.Error(err)
		return
	}
	inode := fmt.Sprintf(":%d ", st.Ino)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		locks, err := os.ReadFile("/proc/locks")
		if err != nil {
			t.Error(err)
			return
		}
		if leaseHasBreaker(string(locks), inode) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("no open for writing of the file waits for its lease after 30 s; /proc/locks:\n%s", locks)
			return
		}
	}
}

// leaseHasBreaker reports whether locks, the text of /proc/locks, lists a
// lease on inode (":INODE ") with a waiting breaker under it.
func leaseHasBreaker(locks, inode string) bool {
	lease := ""
	for _, line := range strings.Split(locks, "\n") {
		id, rest, _ := strings.Cut(line, ":")
		rest = strings.TrimSpace(rest)
		switch {
		case strings.HasPrefix(rest, "-> LEASE") && id == lease:
			return true
		case strings.HasPrefix(rest, "LEASE") && strings.Contains(rest, inode):
			lease = id
		}
	}
	return false
}

// TestLeaseHasBreaker pins the reading of /proc/locks that
// waitForBlockedWriter relies on, with lines as Linux 6 prints them.
func TestLeaseHasBreaker(t *testing.T) {
	held := "1: LEASE  ACTIVE    READ 32033 fe:00:10002521 0 EOF\n"
	breaking := "1: LEASE  BREAKING  UNLCK 32033 fe:00:10002521 0 EOF\n"
	breaker := "1: -> LEASE  BREAKER   WRITE 32033 <none>:0 0 EOF\n"
	other := "2: FLOCK  ADVISORY  WRITE 411 fe:00:777 0 EOF\n2: -> FLOCK  ADVISORY  WRITE 412 fe:00:777 0 EOF\n"
	for _, c := range []struct {
		locks string
		want  bool
	}{
		{held, false},
		{breaking, false},
		{breaking + breaker, true},
		{other, false},
		{other + "3: LEASE  BREAKING  UNLCK 1 fe:00:10002522 0 EOF\n3: -> LEASE  BREAKER   WRITE 1 <none>:0 0 EOF\n", false},
		{"3: LEASE  BREAKING  UNLCK 1 fe:00:10002521 0 EOF\n" + other + breaker, false},
	} {
		if got := leaseHasBreaker(c.locks, ":10002521 "); got != c.want {
			t.Errorf("leaseHasBreaker(%q) = %v, want %v", c.locks, got, c.want)
		}
	}
}
