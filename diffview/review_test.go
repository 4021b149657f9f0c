package diffview

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFileHunksMatchDiff: FileHunks are the hunks the diff prints, in
// order, numbered as FileChangeNumbered labels them; reverting every hunk,
// or every part of every split hunk, gives old back byte for byte; and
// reverting a subset leaves exactly the other hunks' changes.
func TestFileHunksMatchDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 32))
	words := []string{"a\n", "b\n", "c\n", "d\n", "e\r\n", "f", "g\n", "h\n"}
	gen := func(n int) []byte {
		var b strings.Builder
		for i := 0; i < n; i++ {
			w := words[rng.IntN(len(words))]
			if w == "f" && i != n-1 {
				w = "f\n"
			}
			b.WriteString(w)
		}
		return []byte(b.String())
	}
	rounds := 3000
	if testing.Short() {
		rounds = 300
	}
	for round := 0; round < rounds; round++ {
		old := gen(rng.IntN(30))
		new := []byte(string(old))
		// Mutate a few lines of new.
		lines := splitAfterNewline(new)
		var nb strings.Builder
		for _, l := range lines {
			switch rng.IntN(8) {
			case 0:
				continue
			case 1:
				nb.WriteString("X\n")
			case 2:
				nb.Write(l)
				nb.WriteString("Y\n")
				continue
			}
			nb.Write(l)
		}
		new = []byte(nb.String())
		context := rng.IntN(4)
		hs := FileHunks(old, new, context)
		var joined strings.Builder
		for _, h := range hs {
			joined.WriteString(h.String())
		}
		if got, want := joined.String(), Hunks(old, new, context); got != want {
			t.Fatalf("old %q new %q: hunks\n%s\nwant\n%s", old, new, got, want)
		}
		numbered := FileChangeNumbered(Side{Path: "f", Content: old, Exists: true}, Side{Path: "f", Content: new, Exists: true}, context)
		var headers []string
		for _, l := range strings.Split(numbered, "\n") {
			if strings.HasPrefix(l, "@@ ") {
				headers = append(headers, l)
			}
		}
		if len(headers) != len(hs) {
			t.Fatalf("%d headers, %d hunks", len(headers), len(hs))
		}
		for i, h := range hs {
			if want := h.Header() + HunkLabel(i+1); headers[i] != want {
				t.Fatalf("header %d: %q, want %q", i+1, headers[i], want)
			}
		}
		back, err := Revert(new, hs)
		if err != nil || string(back) != string(old) {
			t.Fatalf("old %q new %q: Revert(all) = %q, %v", old, new, back, err)
		}
		var parts []Hunk
		for _, h := range hs {
			parts = append(parts, Split(h)...)
		}
		back, err = Revert(new, parts)
		if err != nil || string(back) != string(old) {
			t.Fatalf("old %q new %q: Revert(all parts) = %q, %v", old, new, back, err)
		}
		if len(parts) < 2 {
			continue
		}
		// Reject the even parts: what is left is the odd parts' change.
		var even, odd []Hunk
		for i, p := range parts {
			if i%2 == 0 {
				even = append(even, p)
			} else {
				odd = append(odd, p)
			}
		}
		mid, err := Revert(new, even)
		if err != nil {
			t.Fatalf("Revert(even): %v", err)
		}
		// The odd parts, taken back out of new, and the even parts, out
		// of the result, reach old whichever order.
		oddOnly, err := Revert(new, odd)
		if err != nil {
			t.Fatal(err)
		}
		rest := FileHunks(old, mid, 0)
		back, err = Revert(mid, rest)
		if err != nil || string(back) != string(old) {
			t.Fatalf("Revert of the rest = %q, %v", back, err)
		}
		if string(mid) == string(new) || string(oddOnly) == string(new) {
			t.Fatalf("old %q new %q: a part reverted nothing", old, new)
		}
	}
}

// TestSplitLikeGitAddP: a hunk with two changes apart splits in two, the
// context between them in both, with git's numbers.
func TestSplitLikeGitAddP(t *testing.T) {
	old := []byte("1\n2\n3\n4\n5\n6\n7\n")
	new := []byte("1\nTWO\n3\n4\n5\nSIX\n7\n")
	hs := FileHunks(old, new, 3)
	if len(hs) != 1 {
		t.Fatalf("%d hunks", len(hs))
	}
	parts := Split(hs[0])
	var got []string
	for _, p := range parts {
		got = append(got, p.String())
	}
	want := []string{
		"@@ -1,5 +1,5 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n",
		"@@ -3,5 +3,5 @@\n 3\n 4\n 5\n-6\n+SIX\n 7\n",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("split:\n%q\nwant\n%q", got, want)
	}
	out, err := Revert(new, parts[1:])
	if err != nil || string(out) != "1\nTWO\n3\n4\n5\n6\n7\n" {
		t.Fatalf("Revert(second) = %q, %v", out, err)
	}
	if _, err := Revert([]byte("1\nTWO\n3\n4\n5\nSEVEN\n7\n"), parts[1:]); err == nil {
		t.Fatal("a stale hunk was reverted")
	}
}
