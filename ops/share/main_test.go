package share

import (
	"fmt"
	"os"
	"testing"

	"github.com/git-edit/git-edit/ops/companion"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestMain builds the companion git-edit-secrets, which a push runs to scan
// what it sends, and points the scan at it.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "git-edit-share-bin")
	if err == nil {
		err = gittest.BuildPrograms(dir, "github.com/git-edit/git-edit/cmd/git-edit-secrets")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(companion.EnvExecPath, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
