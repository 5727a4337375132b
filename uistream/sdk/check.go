package sdk

import (
	"fmt"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// Options says what the app around the client holds that changes how a
// chunk is checked. The zero Options is the current zod.
type Options struct {
	// ZodBefore44 tells that the app's zod is older than 4.4 (zod 3.25.x,
	// whose zod/v4 the SDK imports, or 4.0 to 4.3): ai takes zod as a peer
	// dependency, and those zods accept an absent key of a field that
	// accepts undefined, such as a z.unknown() output, input, data or
	// messageMetadata, where zod 4.4 and later reject it ("expected
	// nonoptional"). The errors then read as zod 4.3.6 writes them.
	ZodBefore44 bool
}

// dialect is what a zod version does differently, as far as the chunk
// schemas reach.
type dialect struct {
	absentUndefined bool // an absent key of a field accepting undefined is fine (zod < 4.4)
	unrecognizedCut bool // unrecognized_keys aborts (zod < 4.4: the union reports every branch)
	infinityName    bool // "received Infinity" rather than "received number" (zod 4.4+)
	discOptions     bool // a discriminated union's miss lists its options (zod 4.4+)
}

func (o Options) dialect() dialect {
	if o.ZodBefore44 {
		return dialect{absentUndefined: true, unrecognizedCut: true}
	}
	return dialect{infinityName: true, discOptions: true}
}

// CheckChunk checks one event's data, the raw JSON of one chunk, as the
// client of release r checks it with the current zod: nil where the client
// takes the chunk, or a *[ChunkError] saying what it throws (r's client
// reads the data with secureJsonParse and validates it against its
// uiMessageChunkSchema). data need not be valid JSON: invalid JSON is an
// AI_JSONParseError, as in the client. It does no allocation when the
// chunk passes.
func (r Release) CheckChunk(data []byte) error { return r.CheckChunkWith(data, Options{}) }

// CheckChunkWith is [Release.CheckChunk] with the app's zod of o.
func (r Release) CheckChunkWith(data []byte, o Options) error {
	s := r.Schema()
	if s == nil {
		return fmt.Errorf("sdk: check chunk: %w: %s", ErrUnknownRelease, r)
	}
	if err := s.Check(data, o); err != nil {
		err.Release = r
		return err
	}
	return nil
}

// Check is [Release.CheckChunkWith] for the releases that share s; the
// error's Release is zero. It does no allocation when the chunk passes.
func (s *Schema) Check(data []byte, o Options) *ChunkError {
	var stack [64]byte
	if _, _, _, err := jsonscan.Validate(data, stack[:0]); err != nil {
		return &ChunkError{Kind: JSONParseError, Value: clip(data), Message: fmt.Sprintf("invalid JSON at byte %d: %s", err.Pos, err.Msg)}
	}
	return s.check(data, o)
}

// check is Check for valid JSON.
func (s *Schema) check(b []byte, o Options) *ChunkError {
	if msg := s.proto.check(b); msg != "" {
		return &ChunkError{Kind: JSONParseError, Value: clip(b), Message: msg}
	}
	c := checker{b: b, d: o.dialect()}
	i := ws(b, 0)
	if s.quick(&c, i) {
		return nil
	}
	c.collect = true
	c.evalUnion(s.union, i)
	e := &ChunkError{Kind: TypeValidationError, Value: clip(b), Issues: c.issues}
	if b[i] == '{' {
		if t, ok := c.field(i, "type"); ok && b[t] == '"' {
			e.Type = text(b, t, end(b, t))
		}
	}
	if len(e.Issues) == 0 {
		// the full run found nothing the quick one did: the full run is
		// zod's, so the chunk passes (the fuzz target FuzzCheckChunk looks
		// for such disagreements)
		return nil
	}
	return e
}

// quick reports whether the chunk at b[i] passes: it checks only the
// branch the chunk's type selects, the one branch that can pass.
func (s *Schema) quick(c *checker, i int) bool {
	b := c.b
	if b[i] != '{' {
		return false
	}
	t, ok := c.field(i, "type")
	if !ok || b[t] != '"' {
		return false
	}
	te := end(b, t)
	var branch *node
	if plain(b, t, te) {
		branch = s.byType[string(b[t+1:te-1])]
	} else {
		var buf [64]byte
		n := 0
		u := newU16(b, t, te)
		for ch, more := u.next(); more; ch, more = u.next() {
			if ch >= 0x80 || n == len(buf) {
				n = -1
				break
			}
			buf[n] = byte(ch)
			n++
		}
		if n >= 0 {
			branch = s.byType[string(buf[:n])]
		}
	}
	if branch == nil && strHasPrefix(b, t, te, "data-") {
		branch = s.data
	}
	if branch == nil {
		return false
	}
	ok, _ = c.eval(branch, i)
	return ok
}

// A checker runs a schema over one valid JSON chunk as zod runs it. With
// collect set it records zod's issues, normalised as the testdata
// generator normalises them (see testdata/generator/generate.mjs); without
// it, it only tells pass or fail, allocating nothing.
type checker struct {
	b       []byte
	d       dialect
	collect bool
	path    []any
	issues  []Issue
}

// field returns the start of the value of key name in the object at b[i]
// (the last one, as JSON.parse keeps it).
func (c *checker) field(i int, name string) (int, bool) {
	v, ok := -1, false
	for it := objectAt(c.b, i); it.next(); {
		if strEq(c.b, it.m.key, it.m.keyEnd, name) {
			v, ok = it.m.val, true
		}
	}
	return v, ok
}

// add records an issue at the current path.
func (c *checker) add(is Issue) {
	if !c.collect {
		return
	}
	is.Path = append([]any{}, c.path...)
	if is.Message == "" {
		is.Message = is.message(c.d)
	}
	c.issues = append(c.issues, is)
}

// push enters a key or index of the path; callers test c.collect first,
// so that nothing is boxed when not collecting.
func (c *checker) push(p any) { c.path = append(c.path, p) }

func (c *checker) pop() {
	if c.collect {
		c.path = c.path[:len(c.path)-1]
	}
}

// received names the JSON type of the value at b[i] as zod's messages do.
func (c *checker) received(i int) string {
	if i < 0 {
		return "undefined"
	}
	switch c.b[i] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	}
	if c.d.infinityName {
		if n := readNumber(c.b, i, end(c.b, i), false); !n.finite {
			if n.neg {
				return "-Infinity"
			}
			return "Infinity"
		}
	}
	return "number"
}

func (c *checker) input(i int) string {
	if i < 0 || !c.collect {
		return ""
	}
	return string(clip(c.b[i:end(c.b, i)]))
}

// aborted reports whether an issue from index from on stops a union from
// taking its branch alone (zod's util.aborted: an issue without
// continue: true).
func (c *checker) aborted(from int) bool {
	for _, is := range c.issues[from:] {
		if !is.cont {
			return true
		}
	}
	return false
}

// eval runs n over the value at b[i] (i < 0: the key is absent) and
// reports whether it passed and, when collecting, whether an issue it
// recorded aborts.
func (c *checker) eval(n *node, i int) (ok, aborted bool) {
	from := len(c.issues)
	ok = c.run(n, i)
	if ok || !c.collect {
		return ok, !ok
	}
	return false, c.aborted(from)
}

// run is eval's body: it records issues and reports whether there were
// none. Where it does not collect it returns at the first failure.
func (c *checker) run(n *node, i int) bool {
	b := c.b
	switch n.kind {
	case kString, kPipe:
		p := n.prefix
		if n.kind == kPipe {
			p = n.elem.prefix
		}
		if i < 0 || b[i] != '"' {
			c.add(Issue{Code: "invalid_type", Expected: "string", Received: c.received(i), Input: c.input(i)})
			return false
		}
		if p != "" && !strHasPrefix(b, i, end(b, i), p) {
			c.add(Issue{Code: "invalid_format", Origin: "string", Format: "starts_with", Prefix: p, Input: c.input(i), cont: true})
			return false
		}
		return true
	case kNumber:
		return c.number(n, i)
	case kBoolean:
		if i < 0 || (b[i] != 't' && b[i] != 'f') {
			c.add(Issue{Code: "invalid_type", Expected: "boolean", Received: c.received(i), Input: c.input(i)})
			return false
		}
		return true
	case kUnknown:
		return true
	case kNull:
		if i < 0 || b[i] != 'n' {
			c.add(Issue{Code: "invalid_type", Expected: "null", Received: c.received(i), Input: c.input(i)})
			return false
		}
		return true
	case kUndefined:
		if i >= 0 {
			c.add(Issue{Code: "invalid_type", Expected: "undefined", Received: c.received(i), Input: c.input(i)})
			return false
		}
		return true
	case kLiteral, kEnum:
		if i >= 0 && b[i] == '"' {
			e := end(b, i)
			for _, v := range n.values {
				if strEq(b, i, e, v) {
					return true
				}
			}
		}
		c.add(Issue{Code: "invalid_value", Values: n.values, Input: c.input(i)})
		return false
	case kOptional:
		if i < 0 {
			return true
		}
		return c.run(n.elem, i)
	case kObject:
		return c.object(n, i)
	case kRecord:
		return c.record(n, i)
	case kArray:
		if i < 0 || b[i] != '[' {
			c.add(Issue{Code: "invalid_type", Expected: "array", Received: c.received(i), Input: c.input(i)})
			return false
		}
		ok := true
		for it := arrayAt(b, i); it.next(); {
			if c.collect {
				c.push(it.idx)
			}
			good := c.run(n.elem, it.at)
			c.pop()
			if !good {
				ok = false
				if !c.collect {
					break
				}
			}
		}
		return ok
	case kUnion:
		if n.disc != "" {
			return c.discriminated(n, i)
		}
		if !c.collect {
			for _, o := range n.options {
				if c.run(o, i) {
					return true
				}
			}
			return false
		}
		return c.evalUnion(n, i)
	case kCustom:
		if i >= 0 && b[i] == '"' && strHasPrefix(b, i, end(b, i), n.prefix) {
			return true
		}
		c.add(Issue{Code: "custom", Message: n.message, Input: c.input(i)})
		return false
	case kJSON:
		return c.json(n, i)
	}
	panic("sdk: run: unknown node kind")
}

// number runs z.number() and its checks.
func (c *checker) number(n *node, i int) bool {
	b := c.b
	if i < 0 || (b[i] != '-' && (b[i] < '0' || b[i] > '9')) {
		c.add(Issue{Code: "invalid_type", Expected: "number", Received: c.received(i), Input: c.input(i)})
		return false
	}
	v := readNumber(b, i, end(b, i), n.safeint || n.nonneg)
	if !v.finite {
		c.add(Issue{Code: "invalid_type", Expected: "number", Received: c.received(i), Input: c.input(i)})
		return false
	}
	ok := true
	if n.safeint {
		const maxSafe = 1<<53 - 1
		switch {
		case !v.integer:
			c.add(Issue{Code: "invalid_type", Expected: "int", Format: "safeint", Received: "number", Input: c.input(i)})
			return false
		case v.value > maxSafe:
			m := float64(maxSafe)
			c.add(Issue{Code: "too_big", Origin: "int", Maximum: &m, Inclusive: ptrTrue(), Note: "Integers must be within the safe integer range.", Input: c.input(i), cont: true})
			ok = false
		case v.value < -maxSafe:
			m := float64(-maxSafe)
			c.add(Issue{Code: "too_small", Origin: "int", Minimum: &m, Inclusive: ptrTrue(), Note: "Integers must be within the safe integer range.", Input: c.input(i), cont: true})
			ok = false
		}
		if !ok && !c.collect {
			return false
		}
	}
	if n.nonneg && v.value < 0 {
		m := 0.0
		c.add(Issue{Code: "too_small", Origin: "number", Minimum: &m, Inclusive: ptrTrue(), Input: c.input(i), cont: true})
		ok = false
	}
	return ok
}

func ptrTrue() *bool { t := true; return &t }

// object runs a z.strictObject, z.looseObject or z.object.
func (c *checker) object(n *node, i int) bool {
	b := c.b
	if i < 0 || b[i] != '{' {
		c.add(Issue{Code: "invalid_type", Expected: "object", Received: c.received(i), Input: c.input(i)})
		return false
	}
	var pos [16]int
	if len(n.fields) > len(pos) {
		panic("sdk: object with more than 16 fields")
	}
	for k := range n.fields {
		pos[k] = -1
	}
	unknownKey := false
next:
	for it := objectAt(b, i); it.next(); {
		m := it.m
		for k, f := range n.fields {
			if strEq(b, m.key, m.keyEnd, f.name) {
				pos[k] = m.val
				continue next
			}
		}
		unknownKey = true
	}
	ok := true
	for k, f := range n.fields {
		v := pos[k]
		if v < 0 && f.node.optin(c.d.absentUndefined) {
			continue
		}
		if c.collect {
			c.push(f.name)
		}
		good := c.run(f.node, v)
		if v < 0 && good && f.node.kind != kOptional {
			// zod's handlePropertyResult: an absent key whose schema takes
			// undefined but is not optional
			c.add(Issue{Code: "invalid_type", Expected: "nonoptional", Received: "undefined"})
			good = false
		}
		c.pop()
		if !good {
			ok = false
			if !c.collect {
				return false
			}
		}
	}
	if unknownKey && n.mode == strict {
		ok = false
		if c.collect {
			var keys []string
			for _, m := range ownKeys(b, i) {
				known := false
				for _, f := range n.fields {
					if strEq(b, m.key, m.keyEnd, f.name) {
						known = true
						break
					}
				}
				if !known {
					keys = append(keys, text(b, m.key, m.keyEnd))
				}
			}
			c.add(Issue{Code: "unrecognized_keys", Keys: keys, cont: !c.d.unrecognizedCut})
		}
	}
	return ok
}

// record runs z.record(z.string(), v): every own key's last value.
func (c *checker) record(n *node, i int) bool {
	b := c.b
	if i < 0 || b[i] != '{' {
		c.add(Issue{Code: "invalid_type", Expected: "record", Received: c.received(i), Input: c.input(i)})
		return false
	}
	if !c.collect {
		for it := objectAt(b, i); it.next(); {
			m := it.m
			if strEq(b, m.key, m.keyEnd, "__proto__") {
				continue
			}
			if !c.run(n.elem, m.val) && !laterKey(b, i, m) {
				return false
			}
		}
		return true
	}
	ok := true
	for _, m := range ownKeys(b, i) {
		if strEq(b, m.key, m.keyEnd, "__proto__") {
			continue
		}
		c.push(text(b, m.key, m.keyEnd))
		if !c.run(n.elem, m.val) {
			ok = false
		}
		c.pop()
	}
	return ok
}

// json runs jsonValueSchema: a union of null, string, number, boolean,
// record and array, recursive.
func (c *checker) json(n *node, i int) bool {
	b := c.b
	if !c.collect {
		switch b[i] {
		case '{':
			for it := objectAt(b, i); it.next(); {
				m := it.m
				if !strEq(b, m.key, m.keyEnd, "__proto__") && !c.json(n, m.val) && !laterKey(b, i, m) {
					return false
				}
			}
			return true
		case '[':
			for it := arrayAt(b, i); it.next(); {
				if !c.json(n, it.at) {
					return false
				}
			}
			return true
		case '"', 'n', 't', 'f':
			return true
		default:
			return readNumber(b, i, end(b, i), false).finite
		}
	}
	return c.evalUnion(jsonUnion(n), i)
}

// jsonUnion is the union jsonValueSchema is, its record and array options
// pointing back at n.
func jsonUnion(n *node) *node {
	var rec *node = n
	if n.recOpt {
		rec = optional(n)
	}
	return &node{kind: kUnion, options: []*node{
		{kind: kNull}, {kind: kString}, {kind: kNumber}, {kind: kBoolean},
		{kind: kRecord, elem: rec}, {kind: kArray, elem: n},
	}}
}

// discriminated runs a z.discriminatedUnion: the option its discriminator
// names, or an invalid_union.
func (c *checker) discriminated(n *node, i int) bool {
	b := c.b
	if i < 0 || b[i] != '{' {
		c.add(Issue{Code: "invalid_type", Expected: "object", Received: c.received(i), Input: c.input(i)})
		return false
	}
	if d, ok := c.field(i, n.disc); ok && b[d] == '"' {
		e := end(b, d)
		for _, o := range n.options {
			for _, f := range o.fields {
				if f.name == n.disc && strEq(b, d, e, f.node.values[0]) {
					return c.run(o, i)
				}
			}
		}
	}
	if c.collect {
		is := Issue{Code: "invalid_union", Note: "No matching discriminator", Discriminator: n.disc}
		if c.d.discOptions {
			for _, o := range n.options {
				for _, f := range o.fields {
					if f.name == n.disc {
						is.Options = append(is.Options, f.node.values[0])
					}
				}
			}
		}
		c.push(n.disc)
		c.add(is)
		c.pop()
	}
	return false
}

// otherType reports whether o is an object whose type literal the value at
// b[i] fails: a value that is not an object, or whose type is not that
// literal. zod's run of o would record an aborting issue at the root or at
// type, which the union's outcome does not need to know more of.
func (c *checker) otherType(o *node, i int) bool {
	if o.kind != kObject {
		return false
	}
	if i < 0 || c.b[i] != '{' {
		return true
	}
	for _, f := range o.fields {
		if f.name == "type" && f.node.kind == kLiteral {
			t, ok := c.field(i, "type")
			return !ok || c.b[t] != '"' || !strEq(c.b, t, end(c.b, t), f.node.values[0])
		}
	}
	return false
}

// evalUnion runs a z.union as zod 4 does, collecting: any option that
// passes passes; else, where exactly one option failed without aborting,
// its issues are the union's; else the union records an invalid_union,
// with as its branch the issues of the option the value was meant for
// (its type matched), if one.
func (c *checker) evalUnion(n *node, i int) bool {
	type result struct {
		issues  []Issue
		aborted bool
		other   bool // its type literal is not the value's: aborted, and not meant
	}
	results := make([]result, 0, len(n.options))
	for _, o := range n.options {
		if c.otherType(o, i) {
			results = append(results, result{aborted: true, other: true})
			continue
		}
		from := len(c.issues)
		ok, aborted := c.eval(o, i)
		if ok {
			c.issues = c.issues[:from]
			return true
		}
		results = append(results, result{issues: append([]Issue(nil), c.issues[from:]...), aborted: aborted})
		c.issues = c.issues[:from]
	}
	var alone *result
	nonAborted := 0
	for k := range results {
		if !results[k].aborted {
			nonAborted++
			alone = &results[k]
		}
	}
	if nonAborted == 1 {
		c.issues = append(c.issues, alone.issues...)
		return false
	}
	depth := len(c.path)
	var meant []Issue
	count := 0
	for _, r := range results {
		selected := !r.other
		for _, is := range r.issues {
			if (len(is.Path) == depth && is.Code != "unrecognized_keys") ||
				(len(is.Path) == depth+1 && is.Path[depth] == "type") {
				selected = false
				break
			}
		}
		if selected {
			count++
			meant = r.issues
		}
	}
	is := Issue{Code: "invalid_union"}
	if count == 1 {
		is.Branch = meant
	}
	c.add(is)
	return false
}
