package text

import "iter"

// FindExact finds every occurrence of needle in content the way the exact
// string-replace dialects (text_editor's str_replace, Edit, MultiEdit) match:
// byte for byte, overlapping occurrences included (as Occurrences), with one
// allowance for line endings.
//
// It searches for needle as given first. When that finds nothing, content's
// EOL (DetectEOL) is CRLF and needle has lone "\n", it searches again for
// ToEOL(needle, CRLF): agents usually write "\n" whatever the file uses. In a
// CRLF file an occurrence may not start at the "\n" of a "\r\n": replacing
// from there would split the line ending and leave a stray "\r" behind; the
// agent meant the whole line ending, which the converted search finds.
//
// offs are the occurrences' byte offsets in increasing order, each the start
// of len(matched) bytes equal to matched. matched is needle, or its CRLF
// conversion when crlfConverted. With no occurrence, offs is nil, matched is
// needle and crlfConverted is false. An empty needle has no occurrences.
func FindExact(content []byte, needle string) (offs []int, matched string, crlfConverted bool) {
	all, matched, crlfConverted := FindExactSeq(content, needle)
	for off := range all {
		offs = append(offs, off)
	}
	return offs, matched, crlfConverted
}

// FindExactSeq is FindExact yielding the offsets one at a time instead of
// collecting them, so that what a caller keeps of them (a count, the first,
// a replacement built as they pass) bounds its memory, not their number.
// all yields nothing when there is no occurrence; it may be ranged over
// more than once.
func FindExactSeq(content []byte, needle string) (all iter.Seq[int], matched string, crlfConverted bool) {
	none := func(func(int) bool) {}
	if needle == "" {
		return none, needle, false
	}
	crlf := DetectEOL(content) == CRLF
	if all = occurrencesKeepingCRLF(content, needle, crlf); any(all) || !crlf {
		return all, needle, false
	}
	conv := ToEOL(needle, CRLF)
	if conv == needle {
		return none, needle, false
	}
	if all = occurrencesKeepingCRLF(content, conv, crlf); !any(all) {
		return none, needle, false
	}
	return all, conv, true
}

// any reports whether offs yields at least one offset.
func any(offs iter.Seq[int]) bool {
	for range offs {
		return true
	}
	return false
}

// occurrencesKeepingCRLF is OccurrencesSeq, minus (in a CRLF file) those
// that start at the "\n" of a "\r\n". Only a needle starting with "\n" can
// start there.
func occurrencesKeepingCRLF(content []byte, needle string, crlf bool) iter.Seq[int] {
	all := OccurrencesSeq(content, needle)
	if !crlf || needle[0] != '\n' {
		return all
	}
	return func(yield func(int) bool) {
		for off := range all {
			if off > 0 && content[off-1] == '\r' {
				continue
			}
			if !yield(off) {
				return
			}
		}
	}
}
