package secrets

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// keys returns m's keys, sorted.
func keys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }

// TestIgnored: paths the worktree's .gitignore excludes come back, others
// and tracked ones do not.
func TestIgnored(t *testing.T) {
	dir := gittest.New(t)
	gittest.Commit(t, dir, map[string]string{
		".gitignore": ".env\n*.pem\n",
		"main.go":    "package main\n",
	})
	// A tracked file that matches an ignore pattern is not ignored.
	gittest.WriteFile(t, dir, "certs/ca.pem", "tracked\n")
	gittest.Git(t, dir, "add", "-f", "certs/ca.pem")
	gittest.Git(t, dir, "commit", "-q", "-m", "track a pem")
	gittest.WriteFile(t, dir, "info.txt", "x\n")
	gittest.WriteFile(t, dir, ".git/info/exclude", "info.txt\n")

	paths := []string{".env", "secrets/key.pem", "main.go", "certs/ca.pem", "info.txt", "sub/.env", "README"}
	for _, env := range [][2]string{{}, {"GIT_LITERAL_PATHSPECS", "1"}, {"GIT_GLOB_PATHSPECS", "1"}, {"GIT_ICASE_PATHSPECS", "1"}} {
		t.Run("env "+env[0], func(t *testing.T) {
			if env[0] != "" {
				t.Setenv(env[0], env[1])
			}
			got, err := Ignored(context.Background(), dir, paths)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{".env", "info.txt", "secrets/key.pem", "sub/.env"}
			if !slices.Equal(keys(got), want) {
				t.Fatalf("Ignored = %v, want %v", keys(got), want)
			}
		})
	}
}

// TestIgnoredLiteral: names that look like wildcards, options or pathspec
// magic are each checked as the literal name they are.
func TestIgnoredLiteral(t *testing.T) {
	names := []string{"*.go", "-v", ":(glob)x", "a[b]", "?", "--stdin", ":(top)", "ab"}
	for _, ignore := range names[:4] {
		t.Run(ignore, func(t *testing.T) {
			dir := gittest.New(t)
			// Ignore exactly the one name (escaped in .gitignore), and track
			// files that a wildcard or magic reading of the names would hit.
			gittest.Commit(t, dir, map[string]string{
				".gitignore": "/" + escapeGitignore(ignore) + "\n",
				"main.go":    "package main\n",
				"x":          "x\n",
				"ab":         "ab\n",
			})
			for _, env := range [][2]string{{}, {"GIT_LITERAL_PATHSPECS", "1"}, {"GIT_GLOB_PATHSPECS", "1"}, {"GIT_NOGLOB_PATHSPECS", "1"}} {
				t.Run("env "+env[0], func(t *testing.T) {
					if env[0] != "" {
						t.Setenv(env[0], env[1])
					}
					got, err := Ignored(context.Background(), dir, names)
					if err != nil {
						t.Fatal(err)
					}
					if want := []string{ignore}; !slices.Equal(keys(got), want) {
						t.Fatalf("Ignored = %q, want %q", keys(got), want)
					}
				})
			}
		})
	}
}

// escapeGitignore escapes the characters a .gitignore pattern reads as
// wildcards, so that the pattern matches name only.
func escapeGitignore(name string) string {
	var b []byte
	for i := range len(name) {
		switch name[i] {
		case '*', '?', '[', ']', '\\', '!', '#':
			b = append(b, '\\')
		}
		b = append(b, name[i])
	}
	return string(b)
}

// TestIgnoredNone: nothing ignored (check-ignore exits 1) is no error, and
// no paths runs no git.
func TestIgnoredNone(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"main.go": "package main\n"})
	for _, paths := range [][]string{{"main.go", "other.go"}, nil, {""}} {
		got, err := Ignored(context.Background(), dir, paths)
		if err != nil || len(got) != 0 {
			t.Fatalf("Ignored(%q) = %v, %v", paths, got, err)
		}
	}
}

// TestIgnoredErrors: a directory that is no repository, a path outside
// the repository and a cancelled context are errors.
func TestIgnoredErrors(t *testing.T) {
	dir := gittest.New(t)
	if _, err := Ignored(context.Background(), t.TempDir(), []string{"a"}); err == nil {
		t.Error("Ignored outside a repository: no error")
	}
	if _, err := Ignored(context.Background(), dir, []string{"../outside"}); err == nil {
		t.Error("Ignored of a path outside the repository: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Ignored(ctx, dir, []string{"a"}); err != context.Canceled {
		t.Errorf("Ignored with a cancelled context: %v", err)
	}
}
