package secrets

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/companion"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestMain builds the companion git-edit-secrets, which Scan runs, and
// points Scan at it: the scan tests go through the companion and its
// protocol, as a push does.
func TestMain(m *testing.M) {
	os.Exit(gittest.RunWithPrograms(m, companion.EnvExecPath, "github.com/git-edit/git-edit/cmd/git-edit-secrets"))
}

// Without the companion, Scan refuses, naming it and how to install it:
// a push is never sent unchecked.
func TestScanWithoutTheCompanionRefuses(t *testing.T) {
	empty := t.TempDir()
	t.Setenv(companion.EnvExecPath, empty)
	_, err := Scan(context.Background(), []Blob{{Session: "s", Commit: "c", Path: "a.txt", Content: []byte("x\n")}}, nil)
	var missing *companion.MissingError
	if !errors.As(err, &missing) || missing.Name != companion.Secrets {
		t.Fatalf("Scan without the companion: %v; want a MissingError for %s", err, companion.Secrets)
	}
	for _, part := range []string{"git-edit-secrets is not installed", empty, "go install ./cmd/..."} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("the refusal does not say %q: %v", part, err)
		}
	}
}

// A companion started by Warm is the one the next Scan takes; one that no
// Scan takes does no harm, and Warm twice keeps one.
func TestWarmThenScan(t *testing.T) {
	Warm()
	Warm()
	key := awsKey(3)
	found, err := Scan(context.Background(), []Blob{{Session: "s", Commit: "c1", Path: "conf.py", Content: []byte("aws_access_key_id = \"" + key + "\"\n")}}, nil)
	if err != nil || len(found) != 1 || found[0].Path != "conf.py" || found[0].Line != 1 {
		t.Fatalf("Scan after Warm: %v, %+v; want the key at conf.py:1", err, found)
	}
	warmMu.Lock()
	left := warm
	warmMu.Unlock()
	if left != nil {
		t.Fatal("Scan left the warm companion waiting")
	}
}
