package transcript

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// A Recorder keeps one transcript per probe in a directory, written while
// the exchanges happen: its methods take the probe ID and pass each event to
// that probe's [Writer], creating the file (named by [FileName]) at the
// probe's first request. Retries of a probe (ex 1, 2, …) go to the same
// file. A probe whose writer failed, such as on a refused leak, records
// nothing more and its file is gone; [Recorder.Err] says why.
//
// A Recorder is safe for concurrent use.
type Recorder struct {
	dir    string
	header Header
	opts   Options

	mu      sync.Mutex
	writers map[string]*Writer
	order   []string        // probe IDs in the order of their first request
	names   map[string]bool // file names taken
	errs    map[string]error
}

// NewRecorder returns a Recorder that writes to dir, creating it when
// needed. h gives the Tool and Target of every transcript; the probe and
// key role are filled in per probe.
func NewRecorder(dir string, h Header, o Options) (*Recorder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("record transcripts: %w", err)
	}
	return &Recorder{dir: dir, header: h, opts: o,
		writers: map[string]*Writer{}, names: map[string]bool{}, errs: map[string]error{}}, nil
}

// Request records the request of attempt ex of probe.
func (r *Recorder) Request(probe string, ex int, req *Request) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.errs[probe]; err != nil {
		return err
	}
	w := r.writers[probe]
	if w == nil {
		h := r.header
		h.Probe = probe
		var err error
		if w, err = Create(filepath.Join(r.dir, r.fileName(probe)), h, r.opts); err != nil {
			r.errs[probe] = err
			return err
		}
		r.writers[probe] = w
		r.order = append(r.order, probe)
	}
	err := w.Request(ex, req)
	if err != nil {
		r.errs[probe] = err
	}
	return err
}

// Response records the response head of attempt ex of probe.
func (r *Recorder) Response(probe string, ex int, resp *Response) error {
	w, err := r.writer(probe)
	if err != nil {
		return err
	}
	return r.keep(probe, w.Response(ex, resp))
}

// Line records one body line of attempt ex of probe.
func (r *Recorder) Line(probe string, ex int, l Line) error {
	w, err := r.writer(probe)
	if err != nil {
		return err
	}
	return r.keep(probe, w.Line(ex, l))
}

// End records how attempt ex of probe ended.
func (r *Recorder) End(probe string, ex int, e End) error {
	w, err := r.writer(probe)
	if err != nil {
		return err
	}
	return r.keep(probe, w.End(ex, e))
}

// Exchange records a whole exchange as attempt ex of probe.
func (r *Recorder) Exchange(probe string, ex int, x *Exchange) error {
	if err := r.Request(probe, ex, &x.Request); err != nil {
		return err
	}
	if x.Response != nil {
		if err := r.Response(probe, ex, x.Response); err != nil {
			return err
		}
	}
	for _, l := range x.Lines {
		if err := r.Line(probe, ex, l); err != nil {
			return err
		}
	}
	return r.End(probe, ex, x.End)
}

// Close closes every transcript. It returns the errors of the probes that
// failed, joined.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for _, probe := range r.order {
		if err := r.writers[probe].Close(); err != nil && r.errs[probe] == nil {
			r.errs[probe] = err
		}
	}
	for _, probe := range r.order {
		if err := r.errs[probe]; err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Path returns the transcript file of probe, or "" when none was written
// (the probe was not sent, or its transcript was refused).
func (r *Recorder) Path(probe string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w := r.writers[probe]; w != nil && r.errs[probe] == nil {
		return w.Path()
	}
	return ""
}

// Paths returns the transcript files written, in the order of the probes'
// first requests.
func (r *Recorder) Paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var paths []string
	for _, probe := range r.order {
		if r.errs[probe] == nil {
			paths = append(paths, r.writers[probe].Path())
		}
	}
	return paths
}

// Err returns why the transcript of probe was not kept, or nil.
func (r *Recorder) Err(probe string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errs[probe]
}

// writer returns the Writer of a probe that has sent its request.
func (r *Recorder) writer(probe string) (*Writer, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.errs[probe]; err != nil {
		return nil, err
	}
	w := r.writers[probe]
	if w == nil {
		err := fmt.Errorf("transcript: probe %s: event before its first request", probe)
		r.errs[probe] = err
		return nil, err
	}
	return w, nil
}

// keep remembers the first error of a probe.
func (r *Recorder) keep(probe string, err error) error {
	if err != nil {
		r.mu.Lock()
		if r.errs[probe] == nil {
			r.errs[probe] = err
		}
		r.mu.Unlock()
	}
	return err
}

// fileName returns a file name for probe that no other probe of this
// Recorder has: FileName, with "-2", "-3", … before the extension when two
// IDs sanitize alike.
func (r *Recorder) fileName(probe string) string {
	name := FileName(probe)
	base := strings.TrimSuffix(name, Ext)
	for n := 2; r.names[name]; n++ {
		name = base + "-" + strconv.Itoa(n) + Ext
	}
	r.names[name] = true
	return name
}
