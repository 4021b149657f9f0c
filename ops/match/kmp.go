package match

import "iter"

// Occurrences yields the index of every occurrence of pattern (not empty)
// in s, overlapping ones included, in order, in time linear in
// len(s)+len(pattern) (Knuth–Morris–Pratt: the standard library searches
// only bytes and strings, and the ladders search lines by their keys).
// Breaking out of the loop stops the search.
func Occurrences[T comparable](s, pattern []T) iter.Seq[int] {
	return func(yield func(int) bool) {
		if len(pattern) == 0 {
			return
		}
		// border[i] is the length of the longest proper prefix of
		// pattern[:i+1] that is also its suffix.
		border := make([]int, len(pattern))
		for i, k := 1, 0; i < len(pattern); i++ {
			for k > 0 && pattern[i] != pattern[k] {
				k = border[k-1]
			}
			if pattern[i] == pattern[k] {
				k++
			}
			border[i] = k
		}
		for i, k := 0, 0; i < len(s); i++ {
			for k > 0 && s[i] != pattern[k] {
				k = border[k-1]
			}
			if s[i] == pattern[k] {
				k++
			}
			if k == len(pattern) {
				if !yield(i - k + 1) {
					return
				}
				k = border[k-1]
			}
		}
	}
}
