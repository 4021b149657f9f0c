package text

import "slices"

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
	if needle == "" {
		return nil, needle, false
	}
	crlf := DetectEOL(content) == CRLF
	offs = occurrencesKeepingCRLF(content, needle, crlf)
	if len(offs) > 0 || !crlf {
		return offs, needle, false
	}
	conv := ToEOL(needle, CRLF)
	if conv == needle {
		return nil, needle, false
	}
	if offs = occurrencesKeepingCRLF(content, conv, crlf); len(offs) == 0 {
		return nil, needle, false
	}
	return offs, conv, true
}

// occurrencesKeepingCRLF is Occurrences, minus (in a CRLF file) those that
// start at the "\n" of a "\r\n". Only a needle starting with "\n" can start
// there.
func occurrencesKeepingCRLF(content []byte, needle string, crlf bool) []int {
	offs := Occurrences(content, needle)
	if crlf && needle[0] == '\n' {
		offs = slices.DeleteFunc(offs, func(off int) bool { return off > 0 && content[off-1] == '\r' })
	}
	if len(offs) == 0 {
		return nil
	}
	return offs
}
