package session

import (
	"fmt"
	"hash/crc32"
	"strings"
)

// SetConversionsOff makes Apply take the path it took before conversions
// existed (for BenchmarkApplyConversions' baseline).
func SetConversionsOff(off bool) { conversionsOff = off }

// ResealIndex gives the lines of a history.idx table (without its
// checksum line) the checksum that makes them read as well-formed: tests
// of what the checks against the commits catch write wrong tables that
// pass it.
func ResealIndex(lines []string) []byte {
	b := []byte(strings.Join(lines, "\n") + "\n")
	return fmt.Appendf(b, "crc %08x\n", crc32.Checksum(b, castagnoli()))
}
