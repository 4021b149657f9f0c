package share

import (
	"os"
	"testing"

	"github.com/git-edit/git-edit/ops/companion"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestMain builds the companion git-edit-secrets, which a push runs to scan
// what it sends, and points the scan at it.
func TestMain(m *testing.M) {
	os.Exit(gittest.RunWithPrograms(m, companion.EnvExecPath, "github.com/git-edit/git-edit/cmd/git-edit-secrets"))
}
