package session

// SetConversionsOff makes Apply take the path it took before conversions
// existed (for BenchmarkApplyConversions' baseline).
func SetConversionsOff(off bool) { conversionsOff = off }
