package client

import (
	"runtime"
	"runtime/debug"
)

// modulePath is the path of the module this package belongs to.
const modulePath = "github.com/chatwire/chatwire"

// Version returns the version of the chatwire module the program was built
// with, as the Go toolchain recorded it in the binary's build information:
// a tag such as "v0.3.0", or a pseudo-version. It returns "devel" when the
// version is unknown: a build without module information, or a build in
// the module's own work tree that the toolchain marks "(devel)".
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return moduleVersion(info)
}

// moduleVersion finds the chatwire module in build information: the main
// module when chatwire itself is being built, else one of the dependencies
// (following a replace directive to the version that was used).
func moduleVersion(info *debug.BuildInfo) string {
	m := &info.Main
	if m.Path != modulePath {
		m = nil
		for _, d := range info.Deps {
			if d.Path == modulePath {
				m = d
				if d.Replace != nil {
					m = d.Replace
				}
				break
			}
		}
	}
	if m == nil || m.Version == "" || m.Version == "(devel)" {
		return "devel"
	}
	return m.Version
}

// userAgent returns the User-Agent the client sends: the product token
// "chatwire-go/VERSION", the Go version and platform in a comment, and
// the caller's own product first when [WithUserAgent] names one.
func userAgent(app string) string {
	ua := "chatwire-go/" + Version() + " (" + runtime.Version() + "; " + runtime.GOOS + "/" + runtime.GOARCH + ")"
	if app != "" {
		ua = app + " " + ua
	}
	return ua
}
