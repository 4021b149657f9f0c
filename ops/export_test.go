package ops

// SetOverlapsOff turns the overlap check off (on with false), for the
// benchmark that measures what it costs.
func SetOverlapsOff(off bool) { overlapsOff = off }
