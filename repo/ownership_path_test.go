package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A safe.directory entry ~user/... is the user's home directory, as git's
// interpolate_path finds it in the user database; a user that does not
// exist makes the entry one that cannot be expanded (git skips it too).
func TestExpandConfigPathUser(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no user database to ask")
	}
	out, err := exec.Command("getent", "passwd", "root").Output()
	if err != nil {
		t.Skipf("getent passwd root: %v", err)
	}
	fields := strings.Split(strings.TrimSpace(string(out)), ":")
	if len(fields) < 6 {
		t.Fatalf("getent passwd root: %q", out)
	}
	if got, ok := expandConfigPath("~root/src/repo"); !ok || got != filepath.Join(fields[5], "src/repo") {
		t.Errorf("~root/src/repo = %q, %v; want %s", got, ok, filepath.Join(fields[5], "src/repo"))
	}
	if got, ok := expandConfigPath("~no-such-user-of-git-edit/x"); ok {
		t.Errorf("~no-such-user-of-git-edit/x = %q; want it not expandable", got)
	}
	home, _ := os.UserHomeDir()
	if got, ok := expandConfigPath("~/x"); home != "" && (!ok || got != home+"/x") {
		t.Errorf("~/x = %q, %v; want %s/x", got, ok, home)
	}
}
