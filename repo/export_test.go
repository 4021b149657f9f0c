package repo

// ParseStatusV2 is parseStatusV2, for the tests that compare StatusPaths
// with git's own answer read the same way.
var ParseStatusV2 = parseStatusV2
