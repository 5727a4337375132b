package chatwire

import (
	"go.k6.io/k6/js/common"
	"go.k6.io/k6/js/modules"

	"github.com/chatwire/chatwire/internal/live"
)

// ImportPath is the name scripts import the module by.
const ImportPath = "k6/x/chatwire"

// Version is the extension's version, exported to scripts as
// chatwire.version. It follows the module's release tags (bench/xk6/vX.Y.Z).
const Version = "v0.1.0"

func init() {
	modules.Register(ImportPath, New())
}

// RootModule is the global module: k6 makes one [ModuleInstance] of it for
// every VU that imports k6/x/chatwire.
type RootModule struct{}

// New returns the root module.
func New() *RootModule { return &RootModule{} }

var (
	_ modules.Module   = (*RootModule)(nil)
	_ modules.Instance = (*ModuleInstance)(nil)
)

// NewModuleInstance returns the module of one VU. It registers the custom
// metrics (registering them again returns the same metrics) and throws in
// the script when it cannot.
func (*RootModule) NewModuleInstance(vu modules.VU) modules.Instance {
	m, err := registerMetrics(vu)
	if err != nil {
		common.Throw(vu.Runtime(), err)
	}
	return &ModuleInstance{vu: vu, metrics: m, meter: live.NewMeter(nil)}
}

// ModuleInstance is the module of one VU. A VU runs one iteration at a
// time and post blocks it, so the instance's meter is never used by two
// requests at once.
type ModuleInstance struct {
	vu      modules.VU
	metrics *streamMetrics
	meter   *live.Meter
}

// Exports returns the module's default export: post and version.
func (mi *ModuleInstance) Exports() modules.Exports {
	rt := mi.vu.Runtime()
	obj := rt.NewObject()
	for name, v := range map[string]any{"post": mi.Post, "version": Version} {
		if err := obj.Set(name, v); err != nil {
			common.Throw(rt, err)
		}
	}
	return modules.Exports{Default: obj}
}
