// Package llm asks an OpenAI-compatible chat-completions endpoint for a
// plain-language summary of an analysis, grounded in its findings. Quotes the
// model returns are kept only when they occur verbatim in the document.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/excerpt"
)

// Errors a caller can tell apart (errors.Is).
var (
	ErrNotConfigured = errors.New("llm: no AI provider configured")
	ErrTimeout       = errors.New("llm: the AI provider did not answer in time")
	ErrMalformed     = errors.New("llm: the AI provider returned a malformed answer")
	ErrUpstream      = errors.New("llm: the AI provider returned an error")
)

// DefaultTimeout bounds one summary when Config.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// Limits on what is sent to the model.
const (
	maxFindings   = 40
	maxQuoteRunes = 600
	maxExcerpt    = 4000
	maxQuotes     = 8
)

// Config selects the provider.
type Config struct {
	BaseURL, APIKey, Model string
	Timeout                time.Duration
}

// Client summarises analyses. It is safe for concurrent use.
type Client struct {
	cfg    Config
	client openai.Client
}

// New returns a client for cfg. It never reads OPENAI_* variables for the
// base URL or key: both come from cfg only.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	c := &Client{cfg: cfg}
	c.client = openai.NewClient(
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0), // Summarize's context bounds the whole call, cfg.Timeout
	)
	return c
}

// Input is what gets summarised.
type Input struct {
	Title, DocumentType, Text string
	Findings                  []analyze.Finding
}

// Summary is the model's answer after verification.
type Summary struct {
	Summary string   `json:"summary"`
	Model   string   `json:"model"`
	Quotes  []string `json:"quotes,omitempty"` // only quotes found verbatim in Input.Text
}

const systemPrompt = `You explain terms of service and privacy policies to ordinary people.
You receive the automatic findings of a clause analysis, each with a verbatim quote from the document.
Write a plain-language summary (at most 150 words, no legal jargon, no markdown) of what the reader is agreeing to and the most important risks and protections, based only on the findings and the excerpt. Do not invent facts. This is informational, not legal advice.
Answer with a single JSON object and nothing else:
{"summary": "<the summary>", "quotes": ["<up to 5 short passages copied exactly, character for character, from the quotes you were given>"]}`

// prompt builds the user message.
func prompt(in Input) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Document title: %s\nDocument type: %s\n\nFindings:\n", oneLine(in.Title), oneLine(in.DocumentType))
	if len(in.Findings) == 0 {
		b.WriteString("(none detected)\n")
	}
	for i, f := range in.Findings {
		if i == maxFindings {
			fmt.Fprintf(&b, "... and %d more findings\n", len(in.Findings)-maxFindings)
			break
		}
		fmt.Fprintf(&b, "%d. [%s] %s: %s\n   Quote: %q\n", i+1, f.Severity, f.Category, f.Title, excerpt.Cut(f.Quote, maxQuoteRunes))
	}
	fmt.Fprintf(&b, "\nDocument excerpt (beginning):\n%s\n", excerpt.Cut(in.Text, maxExcerpt))
	return b.String()
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(unknown)"
	}
	return excerpt.Cut(s, 200)
}

// Summarize asks the model for a summary of in. A timeout returns an error
// wrapping ErrTimeout; an answer that is not the requested JSON, or has an
// empty summary, wraps ErrMalformed; an error status wraps ErrUpstream.
func (c *Client) Summarize(ctx context.Context, in Input) (Summary, error) {
	if c == nil || c.cfg.BaseURL == "" || c.cfg.Model == "" {
		return Summary{}, ErrNotConfigured
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	resp, err := c.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model: openai.ChatModel(c.cfg.Model),
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(systemPrompt),
			openai.UserMessage(prompt(in)),
		},
	})
	if err != nil {
		var apiErr *openai.Error
		switch {
		case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
			return Summary{}, fmt.Errorf("%w (after %s): %v", ErrTimeout, c.cfg.Timeout, err)
		case errors.As(err, &apiErr):
			return Summary{}, fmt.Errorf("%w: status %d", ErrUpstream, apiErr.StatusCode)
		case errors.Is(err, context.Canceled):
			return Summary{}, err
		}
		if ctx.Err() != nil {
			return Summary{}, fmt.Errorf("%w (after %s): %v", ErrTimeout, c.cfg.Timeout, err)
		}
		var se *json.SyntaxError
		if errors.As(err, &se) || strings.Contains(err.Error(), "json") || strings.Contains(err.Error(), "unmarshal") {
			return Summary{}, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		return Summary{}, fmt.Errorf("%w: %v", ErrUpstream, err)
	}
	if resp == nil || len(resp.Choices) == 0 {
		return Summary{}, fmt.Errorf("%w: no choices", ErrMalformed)
	}
	ans, err := parseAnswer(resp.Choices[0].Message.Content)
	if err != nil {
		return Summary{}, err
	}
	model := resp.Model
	if model == "" {
		model = c.cfg.Model
	}
	return Summary{Summary: ans.Summary, Model: model, Quotes: verifyQuotes(in.Text, ans.Quotes)}, nil
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

type answer struct {
	Summary string          `json:"summary"`
	Quotes  json.RawMessage `json:"quotes"`
}

// parseAnswer accepts the JSON object alone, inside a ``` fence, or
// surrounded by prose.
func parseAnswer(content string) (struct {
	Summary string
	Quotes  []string
}, error) {
	var out struct {
		Summary string
		Quotes  []string
	}
	s := strings.TrimSpace(content)
	i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if i < 0 || j < i {
		return out, fmt.Errorf("%w: no JSON object in the answer", ErrMalformed)
	}
	var a answer
	if err := json.Unmarshal([]byte(s[i:j+1]), &a); err != nil {
		return out, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	out.Summary = strings.TrimSpace(a.Summary)
	if out.Summary == "" {
		return out, fmt.Errorf("%w: empty summary", ErrMalformed)
	}
	if len(a.Quotes) > 0 && string(a.Quotes) != "null" {
		// tolerate a list of strings or a list of {"quote": "..."} objects
		var qs []string
		if err := json.Unmarshal(a.Quotes, &qs); err != nil {
			var objs []map[string]any
			if err := json.Unmarshal(a.Quotes, &objs); err == nil {
				for _, o := range objs {
					for _, k := range []string{"quote", "text"} {
						if v, ok := o[k].(string); ok {
							qs = append(qs, v)
							break
						}
					}
				}
			}
		}
		out.Quotes = qs
	}
	return out, nil
}

// verifyQuotes keeps the quotes that occur in text, verbatim, or differing
// only in white space (then the text's own wording is returned, so every
// returned quote is a substring of text). Duplicates and empty quotes go.
func verifyQuotes(text string, quotes []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range quotes {
		q = strings.TrimSpace(q)
		if q == "" || len(out) == maxQuotes {
			continue
		}
		found := ""
		if strings.Contains(text, q) {
			found = q
		} else if fields := strings.Fields(q); len(fields) > 0 && len(fields) <= 200 {
			for k := range fields {
				fields[k] = regexp.QuoteMeta(fields[k])
			}
			if re, err := regexp.Compile(strings.Join(fields, `\s+`)); err == nil {
				found = re.FindString(text)
			}
		}
		if found != "" && !seen[found] {
			seen[found] = true
			out = append(out, found)
		}
	}
	return out
}
