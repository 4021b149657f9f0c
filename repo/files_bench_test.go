package repo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// BenchmarkReplaceFile is one atomic rewrite of a file (ReplaceFile with
// its checks), as an edit makes it, of a 4 KiB and of a 1 MiB file.
func BenchmarkReplaceFile(b *testing.B) {
	for _, size := range []int{4 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			dir := gittest.NewWithCommit(b, map[string]string{"f.txt": strings.Repeat("x", size)})
			r, err := Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			p, err := r.Resolve(dir, "f.txt")
			if err != nil {
				b.Fatal(err)
			}
			versions := [2][]byte{[]byte(strings.Repeat("a", size)), []byte(strings.Repeat("b", size))}
			cur, err := ReadWorkFile(p, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				next := versions[i%2]
				if _, err := ReplaceFile(p, next, cur.Mode, BlobHash(next), cur); err != nil {
					b.Fatal(err)
				}
				cur.Content = next
			}
		})
	}
}
