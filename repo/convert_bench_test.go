package repo_test

import (
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// BenchmarkCleanTalkativeFilter: a clean filter that writes 16 MiB to
// standard error and succeeds. With -benchmem, B/op is what the clean
// costs in memory: a bounded tail of the stderr, not all of it.
func BenchmarkCleanTalkativeFilter(b *testing.B) {
	dir := gittest.New(b)
	gittest.Git(b, dir, "config", "filter.talks.clean", `head -c 16777216 /dev/zero >&2; cat`)
	gittest.WriteFile(b, dir, ".gitattributes", "*.txt filter=talks\n")
	r, err := repo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	c, err := r.Conversions()
	if err != nil {
		b.Fatal(err)
	}
	content := []byte("abc\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CleanID("a.txt", content, false); err != nil {
			b.Fatal(err)
		}
	}
}
