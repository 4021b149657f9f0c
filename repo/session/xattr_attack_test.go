//go:build unix

package session_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// posixACL is the kernel's form of an access ACL (what getfacl shows as
// user::rw-, user:65534:r--, group::r--, mask::r--, other::---).
func posixACL() []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint32(2))
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{0x01, 6, ^uint32(0)}, {0x02, 4, 65534}, {0x04, 4, ^uint32(0)}, {0x10, 4, ^uint32(0)}, {0x20, 0, ^uint32(0)}} {
		binary.Write(&b, binary.LittleEndian, e)
	}
	return b.Bytes()
}

func getXattr(t *testing.T, file, name string) []byte {
	t.Helper()
	buf := make([]byte, 4096)
	n, err := unix.Lgetxattr(file, name, buf)
	if err != nil {
		t.Fatalf("%s of %s: %v", name, filepath.Base(file), err)
	}
	return buf[:n]
}

// TestAttackEditKeepsExtendedAttributes: a file with a user attribute and
// an access ACL that lets one more user read it keeps both byte for byte
// through two edits, and its permission bits.
func TestAttackEditKeepsExtendedAttributes(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
	file := filepath.Join(dir, "f.txt")
	must(t, os.Chmod(file, 0o640))
	if err := unix.Lsetxattr(file, "user.note", []byte("keep me"), 0); errors.Is(err, unix.ENOTSUP) {
		t.Skip("no extended attributes on this file system")
	} else if err != nil {
		t.Fatal(err)
	}
	acl := posixACL()
	if err := unix.Lsetxattr(file, "system.posix_acl_access", acl, 0); errors.Is(err, unix.ENOTSUP) {
		t.Skip("no ACLs on this file system")
	} else if err != nil {
		t.Fatal(err)
	}
	r, s := open(t, dir, "s")
	for i, edit := range []func(*session.Tx) (session.Plan, error){
		replaceFirst("f.txt", "one", "ONE", false),
		replaceFirst("f.txt", "two", "TWO", false),
	} {
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, edit); err != nil {
			t.Fatal(err)
		}
		if got := getXattr(t, file, "user.note"); string(got) != "keep me" {
			t.Fatalf("edit %d: user.note = %q, want %q", i, got, "keep me")
		}
		if got := getXattr(t, file, "system.posix_acl_access"); !bytes.Equal(got, acl) {
			t.Fatalf("edit %d: the access ACL is %x, want %x", i, got, acl)
		}
		if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o640 {
			t.Fatalf("edit %d: mode %v (%v), want 0640", i, fi.Mode(), err)
		}
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "ONE\nTWO\n" {
		t.Fatalf("f.txt = %q", got)
	}
	gittest.Fsck(t, dir)
}

// TestAttackExecutableBitWithACLIsExact: making a file with an ACL
// executable sets x where r is set, and the ACL's mask follows, as chmod
// makes it; the named user's entry stays.
func TestAttackExecutableBitWithACLIsExact(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.sh": "echo\n"})
	file := filepath.Join(dir, "f.sh")
	must(t, os.Chmod(file, 0o640))
	if err := unix.Lsetxattr(file, "system.posix_acl_access", posixACL(), 0); err != nil {
		t.Skipf("no ACLs here: %v", err)
	}
	r, s := open(t, dir, "s")
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.sh"), session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		return session.Plan{Changes: []session.Change{{Path: "f.sh", Content: []byte("echo hi\n"), Mode: 0o100755}}, Meta: session.Meta{Op: session.OpEdit, Tool: "test"}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o750 {
		t.Fatalf("mode %v (%v), want 0750", fi.Mode(), err)
	}
	got := getXattr(t, file, "system.posix_acl_access")
	want := posixACL()
	// user::rwx and mask::r-x: what chmod 750 gives the ACL.
	binary.LittleEndian.PutUint16(want[4+2:], 7)
	binary.LittleEndian.PutUint16(want[4+3*8+2:], 5)
	if !bytes.Equal(got, want) {
		t.Fatalf("ACL %x, want %x", got, want)
	}
}
