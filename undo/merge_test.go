package undo_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/git-edit/git-edit/undo"
)

// Merge is `git merge-file -p` byte for byte, whatever the person's git
// config says; conflicts are named as lines of ours (the file as it is
// now), also when theirs' clean changes before them shift the output.
func TestMergeIsGitMergeFile(t *testing.T) {
	cases := []struct {
		name, base, ours, theirs string
		conflicts                []undo.LineRange
	}{
		{name: "clean, both sides", base: "a\nb\nc\nd\ne\n", ours: "A\nb\nc\nd\ne\n", theirs: "a\nb\nc\nd\nE\n"},
		{name: "CRLF", base: "a\r\nb\r\nc\r\nd\r\n", ours: "a\r\nB\r\nc\r\nd\r\n", theirs: "a\r\nb\r\nc\r\nD\r\n"},
		{name: "no final newline", base: "a\nb\nc\nd", ours: "A\nb\nc\nd", theirs: "a\nb\nc\nD"},
		{name: "adjacent lines conflict", base: "a\nb\nc\nd\n", ours: "a\nB\nc\nd\n", theirs: "a\nb\nC\nd\n", conflicts: []undo.LineRange{{Start: 2, End: 3}}}, // the conflict spans both lines
		{name: "theirs' clean lines before shift the output, not ours", base: "1\n2\n3\n4\n5\n6\n7\n8\n", ours: "1\n2\n3\n4\n5\n6\nX\n8\n",
			theirs: "0\n0\n0\n1\n2\n3\n4\n5\n6\nY\n8\n", conflicts: []undo.LineRange{{Start: 7, End: 7}}},
		{name: "ours removed the lines", base: "a\nb\nc\nd\ne\n", ours: "a\nd\ne\n", theirs: "a\nB\nc\nd\ne\n", conflicts: []undo.LineRange{{Start: 2, End: 1}}},
	}
	t.Setenv("HOME", t.TempDir())
	// A conflict style in the person's config must not change the result.
	os.WriteFile(filepath.Join(os.Getenv("HOME"), ".gitconfig"), []byte("[merge]\n\tconflictStyle = diff3\n"), 0o600)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := undo.Merge(context.Background(), []byte(tc.base), []byte(tc.ours), []byte(tc.theirs))
			if err != nil {
				t.Fatal(err)
			}
			d := t.TempDir()
			for name, c := range map[string]string{"base": tc.base, "ours": tc.ours, "theirs": tc.theirs} {
				os.WriteFile(filepath.Join(d, name), []byte(c), 0o600)
			}
			cmd := exec.Command("git", "merge-file", "-p", "ours", "base", "theirs")
			cmd.Dir = d
			want, gerr := cmd.Output()
			if clean := gerr == nil; clean != (len(got.Conflicts) == 0) {
				t.Fatalf("git merge-file clean %v (%v); Merge found conflicts %v", clean, gerr, got.Conflicts)
			}
			if gerr == nil && string(got.Content) != string(want) {
				t.Fatalf("Merge gives %q, git merge-file %q", got.Content, want)
			}
			if !slices.Equal(got.Conflicts, tc.conflicts) {
				t.Fatalf("conflicts %v, want %v", got.Conflicts, tc.conflicts)
			}
		})
	}
	if _, err := undo.Merge(context.Background(), []byte("a\x00\n"), []byte("b\n"), []byte("c\n")); !errors.Is(err, undo.ErrBinaryMerge) {
		t.Fatalf("binary: %v", err)
	}
}
