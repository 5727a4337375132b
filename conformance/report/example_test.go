package report_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/report"
)

// exampleReport is a small run: one pass, one failure.
func exampleReport() *conformance.Report {
	return &conformance.Report{
		Tool: "chatwire", Version: "0.1.0", Spec: "chat-api.md", Target: "http://127.0.0.1:8080",
		StartedAt: time.Date(2026, 5, 4, 9, 30, 0, 0, time.UTC), Duration: 1250 * time.Millisecond,
		ChatsCreated: 1,
		Results: []conformance.Result{
			{
				ID: "chat/5.3/missing-key-401", Title: "missing Authorization header → 401", Section: "5.3",
				Level: conformance.Must, Outcome: conformance.Pass, Duration: 4 * time.Millisecond,
			},
			{
				ID: "chat/4.5/first-line-code-2", Title: "first line is a 2: part with a chatId", Section: "4.5",
				Level: conformance.Must, Requirement: `"The first line is 2:[{"chatId":"…"}]."`,
				Outcome: conformance.Fail, Reason: `the first line is 0:"Hi"`,
				Expected: []string{`2:[{"chatId":"<string>"}]`}, Actual: `0:"Hi"`, Duration: 80 * time.Millisecond,
				Curl: `curl -sS -N 'http://127.0.0.1:8080/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" --data-raw '{"content":"Hi"}'`,
			},
		},
	}
}

func ExampleWriteConsole() {
	if err := report.WriteConsole(os.Stdout, exampleReport(), report.ConsoleOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// chatwire 0.1.0 · target http://127.0.0.1:8080 · spec chat-api.md
	//
	// 4.5 Stream response
	//   ✗ chat/4.5/first-line-code-2  first line is a 2: part with a chatId — the first line is 0:"Hi"
	//
	// 5.3 Authentication: missing or invalid key
	//   ✔ chat/5.3/missing-key-401  missing Authorization header → 401
	//
	// Failures:
	//
	//   ✗ chat/4.5/first-line-code-2  first line is a 2: part with a chatId  [MUST]
	//     the first line is 0:"Hi"
	//     -> "The first line is 2:[{"chatId":"…"}]."
	//        Expected: 2:[{"chatId":"<string>"}]
	//          Actual: 0:"Hi"
	//     Reproduce with: curl -sS -N 'http://127.0.0.1:8080/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" --data-raw '{"content":"Hi"}'
	//
	// 1 passed, 1 failed, 0 warned, 0 info, 0 skipped, 0 inconclusive, 0 errors
	// 1 chat created, finished in 1.25s
}

func ExampleWriteJSON() {
	r := exampleReport()
	r.Results = r.Results[:1]
	if err := report.WriteJSON(os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "format": "chatwire-report/2",
	//   "tool": "chatwire",
	//   "version": "0.1.0",
	//   "spec": "chat-api.md",
	//   "target": "http://127.0.0.1:8080",
	//   "strict": false,
	//   "started_at": "2026-05-04T09:30:00Z",
	//   "duration_ms": 1250,
	//   "interrupted": false,
	//   "unreachable": "",
	//   "summary": {
	//     "pass": 1,
	//     "warn": 0,
	//     "info": 0,
	//     "fail": 0,
	//     "skip": 0,
	//     "inconclusive": 0,
	//     "error": 0
	//   },
	//   "spend": {
	//     "chats_created": 1
	//   },
	//   "checks": [
	//     {
	//       "id": "chat/5.3/missing-key-401",
	//       "title": "missing Authorization header → 401",
	//       "section": "5.3",
	//       "level": "MUST",
	//       "kind": "",
	//       "cost": "",
	//       "requirement": "",
	//       "outcome": "pass",
	//       "reason": "",
	//       "expected": [],
	//       "actual": "",
	//       "attempts": 0,
	//       "duration_ms": 4,
	//       "params": {},
	//       "curl": "",
	//       "transcripts": []
	//     }
	//   ]
	// }
}

func ExampleReadJSON() {
	in := `{"tool": "chatwire", "started_at": "2026-05-04T09:30:00Z",
  "summary": {"pass": 1, "fail": 1},
  "checks": [
    {"id": "chat/5.3/missing-key-401", "outcome": "pass"},
    {"id": "chat/4.5/first-line-code-2", "outcome": "fail", "reason": "the first line is 0:\"Hi\""}
  ]}`
	r, err := report.ReadJSON(strings.NewReader(in))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", r.Summary)
	for _, res := range r.Results {
		fmt.Printf("%s %s %q\n", res.Outcome, res.ID, res.Reason)
	}

	_, err = report.ReadJSON(strings.NewReader(strings.Replace(in, `"fail", "reason"`, `"failed", "reason"`, 1)))
	fmt.Println(err)
	// Output:
	// {Pass:1 Warn:0 Info:0 Fail:1 Skip:0 Inconclusive:0 Error:0}
	// pass chat/5.3/missing-key-401 ""
	// fail chat/4.5/first-line-code-2 "the first line is 0:\"Hi\""
	// report: line 5:5: checks[1] "chat/4.5/first-line-code-2": unknown outcome "failed"
}

func ExampleWriteJUnit() {
	if err := report.WriteJUnit(os.Stdout, exampleReport()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <testsuites name="chatwire 0.1.0: chat-api.md against http://127.0.0.1:8080" tests="2" failures="1" errors="0" time="1.250">
	//   <testsuite name="chat/4.5" tests="1" failures="1" errors="0" skipped="0" time="0.080" timestamp="2026-05-04T09:30:00">
	//     <properties>
	//       <property name="section" value="4.5 Stream response"/>
	//       <property name="tool" value="chatwire 0.1.0"/>
	//     </properties>
	//     <testcase classname="chat.4.5" name="chat/4.5/first-line-code-2" time="0.080" status="fail">
	//       <failure message="the first line is 0:&quot;Hi&quot;" type="MUST">chat/4.5/first-line-code-2: first line is a 2: part with a chatId
	// Level: MUST
	// Requirement: "The first line is 2:[{"chatId":"…"}]."
	// Expected: 2:[{"chatId":"&lt;string&gt;"}]
	// Actual:   0:"Hi"
	// Reproduce with: curl -sS -N 'http://127.0.0.1:8080/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" --data-raw '{"content":"Hi"}'
	// </failure>
	//     </testcase>
	//   </testsuite>
	//   <testsuite name="chat/5.3" tests="1" failures="0" errors="0" skipped="0" time="0.004" timestamp="2026-05-04T09:30:00">
	//     <properties>
	//       <property name="section" value="5.3 Authentication: missing or invalid key"/>
	//       <property name="tool" value="chatwire 0.1.0"/>
	//     </properties>
	//     <testcase classname="chat.5.3" name="chat/5.3/missing-key-401" time="0.004" status="pass"/>
	//   </testsuite>
	// </testsuites>
}

func ExampleWriteMarkdown() {
	r := exampleReport()
	r.Results = r.Results[:1]
	if err := report.WriteMarkdown(os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ## chatwire conformance report
	//
	// ✅ **Conformant:** no check failed.
	//
	// | Target | Spec | Tool | Strict | Started | Duration | Chats created |
	// |---|---|---|---|---|---|---:|
	// | `http://127.0.0.1:8080` | chat-api.md | chatwire 0.1.0 | no | 2026-05-04T09:30:00Z | 1.25s | 1 |
	//
	// | ✅ Passed | ❌ Failed | ⚠️ Warned | ℹ️ Info | ⏭️ Skipped | ❔ Inconclusive | ❗ Errors | Total |
	// |---:|---:|---:|---:|---:|---:|---:|---:|
	// | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 1 |
	//
	// ### 5.3 Authentication: missing or invalid key
	//
	// | | Check | Title | Level | Details |
	// |:---:|---|---|---|---|
	// | ✅ | `chat/5.3/missing-key-401` | missing Authorization header → 401 | MUST |  |
}

func ExampleSectionTitle() {
	for _, s := range []string{"4.5", "5.3", "9.2", "4.9"} {
		fmt.Printf("%s %q\n", s, report.SectionTitle(s))
	}
	// Output:
	// 4.5 "Stream response"
	// 5.3 "Authentication: missing or invalid key"
	// 9.2 "Model sets"
	// 4.9 ""
}
