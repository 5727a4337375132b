package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
)

func TestWriteJUnitGolden(t *testing.T) {
	tests := []struct {
		name   string
		report *conformance.Report
	}{
		{"report.junit.xml", fixtureReport()},
		{"empty.junit.xml", emptyReport()},
		{"interrupted.junit.xml", interruptedReport()},
		{"unreachable.junit.xml", unreachableReport()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteJUnit(&b, tt.report), "write %s", tt.name)
			golden(t, tt.name+".golden", b.Bytes())
		})
	}
}

// TestWriteJUnitOutcomes pins the outcome mapping, one outcome at a time:
// h2spec wrote every failure as <error>, which CI counts differently.
func TestWriteJUnitOutcomes(t *testing.T) {
	base := conformance.Result{
		ID: "chat/4.5/first-line-code-2", Title: "first line is a 2: part", Section: "4.5",
		Level: conformance.Must, Requirement: `"The first line is 2:[…]."`, Reason: "the reason",
		Expected: []string{"2:[…]"}, Actual: `0:"hi"`, Duration: 12 * time.Millisecond,
		Curl: `curl -sS 'http://x/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY"`, Transcripts: []string{"t/a.jsonl"},
	}
	tests := []struct {
		outcome conformance.Outcome
		level   conformance.Level
		element string // the one child before system-out, "" for none
		attrs   map[string]string
		stdout  string // start of <system-out>, "" for none
		counts  [3]int // failures, errors, skipped of the suite
	}{
		{conformance.Pass, conformance.Must, "", nil, "", [3]int{0, 0, 0}},
		{conformance.Fail, conformance.Must, "failure", map[string]string{"type": "MUST", "message": "the reason"}, "", [3]int{1, 0, 0}},
		{conformance.Fail, conformance.Should, "failure", map[string]string{"type": "SHOULD", "message": "the reason"}, "", [3]int{1, 0, 0}},
		{conformance.Error, conformance.Must, "error", map[string]string{"type": "error", "message": "the reason"}, "", [3]int{0, 1, 0}},
		{conformance.Skip, conformance.Must, "skipped", map[string]string{"message": "the reason"}, "", [3]int{0, 0, 1}},
		{conformance.Inconclusive, conformance.Must, "skipped", map[string]string{"message": "inconclusive: the reason"}, "", [3]int{0, 0, 1}},
		{conformance.Warn, conformance.Should, "", nil, "warn: the reason\n", [3]int{0, 0, 0}},
		{conformance.Info, conformance.Infos, "", nil, "info: the reason\n", [3]int{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(string(tt.outcome)+"/"+string(tt.level), func(t *testing.T) {
			res := base
			res.Outcome, res.Level = tt.outcome, tt.level
			r := emptyReport()
			r.Results = []conformance.Result{res}
			var b bytes.Buffer
			require.NoError(t, WriteJUnit(&b, r))
			root, err := parseXML(b.Bytes())
			require.NoError(t, err, "JUnit output must be well-formed XML:\n%s", b.String())
			require.NoError(t, validateJUnit(root), "JUnit output must be structurally valid:\n%s", b.String())

			suite := root.Children[0]
			assert.Equal(t, "chat/4.5", suite.Attrs["name"], "suite name")
			assert.Equal(t, []string{"1", strconv.Itoa(tt.counts[0]), strconv.Itoa(tt.counts[1]), strconv.Itoa(tt.counts[2])},
				[]string{suite.Attrs["tests"], suite.Attrs["failures"], suite.Attrs["errors"], suite.Attrs["skipped"]},
				"suite tests, failures, errors, skipped for outcome %s", tt.outcome)
			tc := suite.child("testcase")
			require.NotNil(t, tc, "the suite must hold the testcase")
			assert.Equal(t, map[string]string{"classname": "chat.4.5", "name": "chat/4.5/first-line-code-2", "time": "0.012", "status": string(tt.outcome)},
				tc.Attrs, "testcase attributes for outcome %s", tt.outcome)

			var results []*xmlNode
			for _, c := range tc.Children {
				if c.Name != "system-out" {
					results = append(results, c)
				}
			}
			if tt.element == "" {
				assert.Empty(t, results, "outcome %s passes: no failure, error or skipped element", tt.outcome)
			} else {
				require.Len(t, results, 1, "outcome %s has exactly one result element", tt.outcome)
				assert.Equal(t, tt.element, results[0].Name, "outcome %s maps to <%s>", tt.outcome, tt.element)
				assert.Equal(t, tt.attrs, results[0].Attrs, "attributes of <%s>", tt.element)
				if tt.outcome != conformance.Skip {
					for _, want := range []string{"Requirement: " + base.Requirement, "Expected: 2:[…]", `Actual:   0:"hi"`,
						"Transcript: t/a.jsonl", "Reproduce with: " + base.Curl} {
						assert.Contains(t, results[0].Text, want, "<%s> must carry the evidence", tt.element)
					}
				}
			}
			out := tc.child("system-out")
			if tt.stdout == "" {
				assert.Nil(t, out, "outcome %s writes no system-out", tt.outcome)
			} else {
				require.NotNil(t, out, "outcome %s writes its reason to system-out", tt.outcome)
				assert.True(t, strings.HasPrefix(out.Text, tt.stdout), "system-out of %s starts %q; got %q", tt.outcome, tt.stdout, out.Text)
			}
		})
	}
}

func TestWriteJUnitStructure(t *testing.T) {
	for name, r := range map[string]*conformance.Report{
		"fixture": fixtureReport(), "empty": emptyReport(), "interrupted": interruptedReport(), "unreachable": unreachableReport(), "escaping": escapingReport(),
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteJUnit(&b, r))
			root, err := parseXML(b.Bytes())
			require.NoError(t, err, "JUnit output must be well-formed XML:\n%s", b.String())
			assert.NoError(t, validateJUnit(root), "JUnit output must be structurally valid:\n%s", b.String())
			assert.Len(t, root.Children, len(groupBySection(r.Results)), "one testsuite per section")
		})
	}

	var b bytes.Buffer
	require.NoError(t, WriteJUnit(&b, fixtureReport()))
	root, err := parseXML(b.Bytes())
	require.NoError(t, err)
	var names []string
	for _, s := range root.Children {
		names = append(names, s.Attrs["name"])
	}
	assert.Equal(t, []string{"chat/4.2", "chat/4.3", "chat/4.4", "chat/4.5", "chat/4.6", "chat/5.3", "chat/5.4", "chat/7.3", "chat/8.1", "chat/9.2"},
		names, "testsuites in section order")
	assert.Equal(t, "chatwire 0.1.0: chat-api.md against http://127.0.0.1:8080", root.Attrs["name"], "the root names the run")
	assert.Equal(t, "4.213", root.Attrs["time"], "the root's time is the run's duration")
	suite45 := root.Children[3]
	assert.Equal(t, "0.832", suite45.Attrs["time"], "a suite's time is the sum of its cases'")
	assert.Equal(t, "2026-05-04T09:30:00", suite45.Attrs["timestamp"], "suite timestamp is the start in UTC without a zone")
	assert.Equal(t, "4.5 Stream response", suite45.child("properties").child("property").Attrs["value"], "the suite names its section")
}

// TestValidateJUnitRejects shows that the structural check catches what a
// JUnit consumer would trip on.
func TestValidateJUnitRejects(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteJUnit(&b, fixtureReport()))
	good := b.String()
	tests := []struct{ name, old, new, want string }{
		{"suite count", `tests="3" failures="1"`, `tests="2" failures="1"`, "tests=2"},
		{"root failures", `tests="14" failures="2"`, `tests="14" failures="3"`, "failures=3"},
		{"suite skipped", `skipped="1" time="1.500"`, `skipped="0" time="1.500"`, "skipped=0"},
		{"properties in testcase", `status="pass"/>`, `status="pass"><properties><property name="outcome" value="pass"/></properties></testcase>`, "<properties> not allowed in <testcase>"},
		{"system-out before failure", `status="fail">` + "\n      <failure", `status="fail"><system-out>x</system-out>` + "\n      <failure", "after <system-out>"},
		{"no name", `name="chat/4.6/documented-status" `, ``, `no name`},
		{"unknown attribute", `<testsuites name=`, `<testsuites skipped="1" name=`, `attribute skipped`},
		{"bad time", `time="0.012"`, `time="1e-2"`, `time "1e-2"`},
		{"two results", `<skipped message="needs`, `<error/><skipped message="needs`, "2 result elements"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, good, tt.old, "the fixture's JUnit must hold %q to make the bad case", tt.old)
			bad := strings.Replace(good, tt.old, tt.new, 1)
			root, err := parseXML([]byte(bad))
			require.NoError(t, err, "the bad case is well-formed XML")
			err = validateJUnit(root)
			require.Error(t, err, "validateJUnit must reject %s", tt.name)
			assert.Contains(t, err.Error(), tt.want, "error for %s", tt.name)
		})
	}
}

// escapingReport holds text that XML cannot carry as it is.
func escapingReport() *conformance.Report {
	r := emptyReport()
	r.Target = `http://h/?a=1&b="2"`
	r.Results = []conformance.Result{
		{
			ID: "chat/4.5/line-grammar", Section: "4.5", Title: `<code>:<JSON> & "quotes" 'apostrophes' ]]>`,
			Level: conformance.Must, Outcome: conformance.Fail,
			Reason:   "line 2: \x00\x01\x0b\x1b[31m\x7f\r\u0085 \ufffe\uffff bad UTF-8 \xff\xfe\nsecond line\ttab",
			Expected: []string{"<x>&amp;</x>", "]]>"},
			Actual:   "a\x00b\nc\u202ed 🎉",
			Curl:     `curl -d '{"a":"<&>"}'`,
		},
		{
			ID: "chat/4.5/prefix-shortcut", Section: "4.5", Outcome: conformance.Inconclusive,
			Reason: "timeout\x08\x08\x08", Actual: "]]>\x0c",
		},
		{ID: "chat/4.5/stream-content-type", Section: "4.5", Outcome: conformance.Warn, Reason: "<warn & \x1b>"},
	}
	return r
}

func TestWriteJUnitEscaping(t *testing.T) {
	r := escapingReport()
	var b bytes.Buffer
	require.NoError(t, WriteJUnit(&b, r))
	root, err := parseXML(b.Bytes())
	require.NoError(t, err, "XML with hostile text must stay well-formed:\n%s", b.String())
	require.NoError(t, validateJUnit(root))
	assert.Contains(t, root.Attrs["name"], `http://h/?a=1&b="2"`, "& and \" in attributes round-trip")

	cases := root.Children[0].Children[1:] // after <properties>
	require.Len(t, cases, 3)
	failure := cases[0].child("failure")
	require.NotNil(t, failure)
	assert.Equal(t, visible(r.Results[0].Reason), failure.Attrs["message"],
		"the message attribute must read back as the visible reason, newline and tab included")
	assert.Contains(t, failure.Text, "Expected: <x>&amp;</x>\n          ]]>\n", "markup in expected values reads back as text")
	assert.Contains(t, failure.Text, "Actual:   a\\x00b\n          c\\u202ed 🎉\n", "control characters in text become visible escapes")
	assert.Contains(t, failure.Text, `Reproduce with: curl -d '{"a":"<&>"}'`, "the curl line reads back unchanged")
	assert.Equal(t, `inconclusive: timeout\x08\x08\x08`, cases[1].child("skipped").Attrs["message"], "backspaces are escaped")
	assert.True(t, strings.HasPrefix(cases[2].child("system-out").Text, `warn: <warn & \x1b>`), "system-out reads back")
	assert.NotContains(t, b.String(), "\x00", "no NUL byte may reach the XML")
	assert.NotContains(t, b.String(), "\x1b", "no ESC byte may reach the XML")
	assert.NotContains(t, b.String(), "\r", "a CR would be normalised away by XML parsers, so it is escaped")
}

// TestJUnitSchema validates the output with xmllint against the Jenkins
// xUnit plugin's junit-10.xsd (testdata/junit-10.xsd.md says where it comes
// from). Under CI=true a missing xmllint is a failure, so CI cannot skip it
// silently; elsewhere the test skips.
func TestJUnitSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("xmllint is not on PATH; CI must install it (Debian package libxml2-utils) to validate the JUnit schema")
		}
		t.Skip("xmllint is not on PATH (install libxml2-utils); skipping the schema validation that CI runs")
	}
	schema, err := filepath.Abs(filepath.Join("testdata", "junit-10.xsd"))
	require.NoError(t, err)
	dir := t.TempDir()
	validate := func(name string, doc []byte) error {
		path := filepath.Join(dir, name+".xml")
		require.NoError(t, os.WriteFile(path, doc, 0o644))
		out, err := exec.Command(xmllint, "--noout", "--nonet", "--schema", schema, path).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%w: %s", err, out)
		}
		return nil
	}

	for name, r := range map[string]*conformance.Report{
		"fixture": fixtureReport(), "empty": emptyReport(), "interrupted": interruptedReport(), "unreachable": unreachableReport(), "escaping": escapingReport(),
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteJUnit(&b, r))
			assert.NoError(t, validate(name, b.Bytes()), "xmllint must accept the JUnit of the %s report", name)
		})
	}
	t.Run("schema rejects what consumers reject", func(t *testing.T) {
		for name, doc := range map[string]string{
			"properties in testcase": `<testsuites><testsuite name="s" tests="1"><testcase name="c"><properties><property name="outcome" value="warn"/></properties></testcase></testsuite></testsuites>`,
			"testcase without name":  `<testsuites><testsuite name="s" tests="1"><testcase classname="c"/></testsuite></testsuites>`,
			"skipped on testsuites":  `<testsuites skipped="1"/>`,
		} {
			assert.Error(t, validate(strings.ReplaceAll(name, " ", "-"), []byte(doc)), "xmllint must reject a document with %s", name)
		}
	})
}

// xmlNode is an element of a parsed XML document.
type xmlNode struct {
	Name     string
	Attrs    map[string]string
	Children []*xmlNode
	Text     string // character data directly inside the element
}

// child returns the first child element called name, or nil.
func (n *xmlNode) child(name string) *xmlNode {
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// parseXML parses a whole document with encoding/xml, which rejects
// characters XML 1.0 forbids.
func parseXML(data []byte) (*xmlNode, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []*xmlNode
	var root *xmlNode
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{Name: tok.Name.Local, Attrs: make(map[string]string)}
			for _, a := range tok.Attr {
				n.Attrs[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("two root elements")
				}
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.Children = append(parent.Children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].Text += string(tok)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

// The attributes junit-10.xsd allows on each element.
var junitAttrs = map[string][]string{
	"testsuites": {"name", "time", "tests", "failures", "disabled", "errors"},
	"testsuite": {"name", "tests", "failures", "errors", "time", "disabled", "skipped", "skips", "timestamp",
		"hostname", "id", "package", "assertions", "file", "skip", "log", "url"},
	"testcase":   {"name", "assertions", "time", "timestamp", "classname", "status", "class", "file", "line", "log", "group", "url"},
	"properties": {},
	"property":   {"name", "value"},
	"failure":    {"type", "message"},
	"error":      {"type", "message"},
	"skipped":    {"type", "message"},
	"system-out": {},
	"system-err": {},
}

var junitTime = regexp.MustCompile(`^[0-9]+(\.[0-9]{1,3})?$`)

// validateJUnit checks what JUnit consumers rely on: the elements and
// attributes of junit-10.xsd, the required attributes, Surefire's element
// order (properties first in a suite; failure, error or skipped before
// system-out in a case), times Surefire's pattern accepts, and counts that
// agree with the testcases.
func validateJUnit(root *xmlNode) error {
	if root.Name != "testsuites" {
		return fmt.Errorf("root is <%s>, want <testsuites>", root.Name)
	}
	if err := checkAttrs(root); err != nil {
		return err
	}
	var tests, failures, errs int
	for _, suite := range root.Children {
		if suite.Name != "testsuite" {
			return fmt.Errorf("<%s> not allowed in <testsuites>", suite.Name)
		}
		st, sf, se, err := checkSuite(suite)
		if err != nil {
			return fmt.Errorf("testsuite %q: %w", suite.Attrs["name"], err)
		}
		tests, failures, errs = tests+st, failures+sf, errs+se
	}
	for attr, n := range map[string]int{"tests": tests, "failures": failures, "errors": errs} {
		if got := root.Attrs[attr]; got != strconv.Itoa(n) {
			return fmt.Errorf("testsuites has %s=%s, but its suites count %d", attr, got, n)
		}
	}
	if !junitTime.MatchString(root.Attrs["time"]) {
		return fmt.Errorf("testsuites has time %q", root.Attrs["time"])
	}
	return nil
}

func checkSuite(suite *xmlNode) (tests, failures, errs int, err error) {
	if err := checkAttrs(suite); err != nil {
		return 0, 0, 0, err
	}
	if _, ok := suite.Attrs["tests"]; !ok {
		return 0, 0, 0, fmt.Errorf("no tests attribute")
	}
	var skipped int
	var totalMillis int64
	for i, c := range suite.Children {
		switch c.Name {
		case "properties":
			if i != 0 {
				return 0, 0, 0, fmt.Errorf("<properties> is not the first child")
			}
			for _, p := range c.Children {
				if p.Name != "property" {
					return 0, 0, 0, fmt.Errorf("<%s> not allowed in <properties>", p.Name)
				}
				if err := checkAttrs(p); err != nil {
					return 0, 0, 0, err
				}
				if _, ok := p.Attrs["name"]; !ok {
					return 0, 0, 0, fmt.Errorf("property without name")
				}
			}
		case "testcase":
			result, ms, err := checkCase(c)
			if err != nil {
				return 0, 0, 0, fmt.Errorf("testcase %q: %w", c.Attrs["name"], err)
			}
			tests++
			totalMillis += ms
			switch result {
			case "failure":
				failures++
			case "error":
				errs++
			case "skipped":
				skipped++
			}
		default:
			return 0, 0, 0, fmt.Errorf("<%s> not allowed in <testsuite>", c.Name)
		}
	}
	for attr, n := range map[string]int{"tests": tests, "failures": failures, "errors": errs, "skipped": skipped} {
		if got := suite.Attrs[attr]; got != strconv.Itoa(n) {
			return 0, 0, 0, fmt.Errorf("%s=%s, but its testcases count %d", attr, got, n)
		}
	}
	if ms, err := millisOf(suite.Attrs["time"]); err != nil || ms != totalMillis {
		return 0, 0, 0, fmt.Errorf("time %q is not the sum of its cases' %dms", suite.Attrs["time"], totalMillis)
	}
	return tests, failures, errs, nil
}

// checkCase returns the name of the case's result element ("" when it
// passed) and its time in milliseconds.
func checkCase(tc *xmlNode) (string, int64, error) {
	if err := checkAttrs(tc); err != nil {
		return "", 0, err
	}
	if tc.Attrs["name"] == "" {
		return "", 0, fmt.Errorf("no name")
	}
	if tc.Attrs["classname"] == "" {
		return "", 0, fmt.Errorf("no classname")
	}
	ms, err := millisOf(tc.Attrs["time"])
	if err != nil {
		return "", 0, err
	}
	var result string
	var results int
	sawOutput := false
	for _, c := range tc.Children {
		switch c.Name {
		case "failure", "error", "skipped":
			if sawOutput {
				return "", 0, fmt.Errorf("<%s> after <system-out>", c.Name)
			}
			results++
			result = c.Name
		case "system-out", "system-err":
			sawOutput = true
		default:
			return "", 0, fmt.Errorf("<%s> not allowed in <testcase>", c.Name)
		}
		if err := checkAttrs(c); err != nil {
			return "", 0, err
		}
		if len(c.Children) > 0 {
			return "", 0, fmt.Errorf("<%s> holds elements", c.Name)
		}
	}
	if results > 1 {
		return "", 0, fmt.Errorf("%d result elements, want at most one", results)
	}
	return result, ms, nil
}

func checkAttrs(n *xmlNode) error {
	allowed, ok := junitAttrs[n.Name]
	if !ok {
		return fmt.Errorf("unknown element <%s>", n.Name)
	}
	for a := range n.Attrs {
		if !slices.Contains(allowed, a) {
			return fmt.Errorf("attribute %s not allowed on <%s>", a, n.Name)
		}
	}
	return nil
}

// millisOf parses a JUnit time in seconds, as Surefire's pattern allows it.
func millisOf(s string) (int64, error) {
	if !junitTime.MatchString(s) {
		return 0, fmt.Errorf("time %q is not seconds with up to three decimals", s)
	}
	whole, frac, _ := strings.Cut(s, ".")
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, err
	}
	frac = (frac + "000")[:3]
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, err
	}
	return w*1000 + f, nil
}

func TestWriteJUnitStopped(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteJUnit(&b, keyRejectedReport()))
	assert.Contains(t, b.String(), `<property name="stopped" value="key_rejected: stopped sending: the key in CHATWIRE_API_KEY was rejected`, "each suite says why the run stopped")
	assert.NotContains(t, b.String(), `name="unreachable"`, "a rejected key is no unreachable target")
}
