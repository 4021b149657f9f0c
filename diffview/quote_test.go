package diffview

import "testing"

// TestHeaderPath checks names against the quoting git itself writes.
func TestHeaderPath(t *testing.T) {
	for name, want := range map[string]string{
		"":                 "/dev/null",
		"dir/file.go":      "a/dir/file.go",
		"with space.txt":   "a/with space.txt",
		"日本.txt":           "a/日本.txt",
		"tab\tnew\nline":   `"a/tab\tnew\nline"`,
		`q"uote\back`:      `"a/q\"uote\\back"`,
		"bell\a\x01\x7f.x": `"a/bell\a\001\177.x"`,
	} {
		if got := headerPath("a/", name); got != want {
			t.Errorf("headerPath(%q) = %s, want %s", name, got, want)
		}
	}
}
