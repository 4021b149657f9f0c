package companion

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// program writes an executable file named for companion name in dir.
func program(t *testing.T, dir, name string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindTakesTheExecPathOnlyWhenSet(t *testing.T) {
	exe, onPath := t.TempDir(), t.TempDir()
	want := program(t, exe, MCP)
	program(t, onPath, MCP)
	program(t, onPath, Secrets)
	t.Setenv("PATH", onPath)
	t.Setenv(EnvExecPath, exe)
	if got, err := Find(MCP); err != nil || got != want {
		t.Fatalf("Find(%s) = %q, %v; want %q", MCP, got, err, want)
	}
	// Set, it is the only place: the copy on PATH is not taken.
	_, err := Find(Secrets)
	var missing *MissingError
	if !errors.As(err, &missing) || missing.Name != Secrets {
		t.Fatalf("Find(%s) with %s=%s: %v; want a MissingError", Secrets, EnvExecPath, exe, err)
	}
	for _, part := range []string{Secrets + " is not installed", exe, EnvExecPath, "go install ./cmd/..."} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("the refusal does not say %q: %v", part, err)
		}
	}
}

func TestFindFallsBackToPath(t *testing.T) {
	onPath := t.TempDir()
	want := program(t, onPath, Secrets)
	t.Setenv(EnvExecPath, "")
	t.Setenv("PATH", onPath)
	if got, err := Find(Secrets); err != nil || got != want {
		t.Fatalf("Find(%s) = %q, %v; want %q from PATH", Secrets, got, err, want)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := Find(Secrets)
	var missing *MissingError
	if !errors.As(err, &missing) {
		t.Fatalf("Find without the program anywhere: %v; want a MissingError", err)
	}
	self, _ := os.Executable()
	for _, part := range []string{"beside " + filepath.Base(self), "on PATH", "go install ./cmd/..."} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("the refusal does not say %q: %v", part, err)
		}
	}
}

func TestFindSkipsWhatCannotRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no execute bit")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, MCP), []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, Secrets), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvExecPath, dir)
	for _, name := range []string{MCP, Secrets} {
		if got, err := Find(name); err == nil {
			t.Errorf("Find(%s) = %q; want it refused (not executable, or a directory)", name, got)
		}
	}
}

// A relative GIT_EDIT_EXEC_PATH ("." or "bin") names a directory of the
// current directory: Find returns the absolute path of the program it
// checked there, which runs from any directory, and never a decoy of the
// same name on PATH (which a bare name, "." joined to the name, would run).
func TestFindRelativeExecPathRunsTheProgramChecked(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the programs are shell scripts")
	}
	for _, rel := range []string{".", "bin", "./bin/../bin"} {
		t.Run(rel, func(t *testing.T) {
			top, decoys, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
			ran := filepath.Join(t.TempDir(), "ran")
			script := func(dir, who string) string {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, Secrets)
				if err := os.WriteFile(p, []byte("#!/bin/sh\necho "+who+" > '"+ran+"'\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				return p
			}
			want := script(filepath.Join(top, rel), "checked")
			script(decoys, "decoy")
			t.Chdir(top)
			t.Setenv("PATH", decoys)
			t.Setenv(EnvExecPath, rel)
			got, err := Find(Secrets)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(got)
			cmd.Dir = elsewhere
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("running %s from %s: %v\n%s", got, elsewhere, err, out)
			}
			if who, _ := os.ReadFile(ran); strings.TrimSpace(string(who)) != "checked" {
				t.Fatalf("running %q, which Find returned, from %s ran %q; want the program checked in %s", got, elsewhere, who, rel)
			}
			if !filepath.IsAbs(got) || got != filepath.Clean(want) {
				t.Fatalf("Find(%s) with %s=%s = %q; want the absolute %q", Secrets, EnvExecPath, rel, got, filepath.Clean(want))
			}
		})
	}
}

// A relative GIT_EDIT_EXEC_PATH without the program is refused naming the
// directory as given and as it was taken.
func TestFindRelativeExecPathMissing(t *testing.T) {
	top := t.TempDir()
	t.Chdir(top)
	t.Setenv(EnvExecPath, "bin")
	_, err := Find(Secrets)
	var missing *MissingError
	if !errors.As(err, &missing) {
		t.Fatalf("Find with %s=bin and no program there: %v; want a MissingError", EnvExecPath, err)
	}
	for _, part := range []string{"in bin, that is " + filepath.Join(top, "bin"), EnvExecPath, "go install ./cmd/..."} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("the refusal does not say %q: %v", part, err)
		}
	}
}
