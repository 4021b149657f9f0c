package repo

// ParseStatusV2 is parseStatusV2, for the tests that compare StatusPaths
// with git's own answer read the same way.
var ParseStatusV2 = parseStatusV2

// SetMaxUntrackedSpecs sets the number of untracked directories past which
// StatusPaths asks its second question of everything (see
// maxUntrackedSpecs), so that a test reaches that path with few of them;
// it returns a function that restores the bound.
func SetMaxUntrackedSpecs(n int) (restore func()) {
	was := maxUntrackedSpecs
	maxUntrackedSpecs = n
	return func() { maxUntrackedSpecs = was }
}
