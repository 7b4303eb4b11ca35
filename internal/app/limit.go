package app

import (
	"fmt"
	"strings"
	"time"
)

// Every refusal for a plan limit (a daily scan budget, the monthly AI budget,
// the active-key and active-monitor caps) carries, beside the contract's
// fixed message and members, the same four members in REST's body and in
// GraphQL's extensions, so a client can say what happened and what to do:
//
//	limit     the cap that was hit
//	used      how much of it is in use
//	resetsAt  when it comes back (Unix ms; absent for the caps on active keys
//	          and monitors, which free up only when one is revoked or deleted)
//	hint      one sentence in words: the numbers, the plan, and what to do
//
// They are additive: the contract's members (scansRemaining, keyLimit, ...)
// stay as they were.

// planOrder is the plans from smallest to largest, for naming an upgrade.
var planOrder = []Tier{TierFree, TierBase, TierAdvanced}

// upgradeHint names the larger plans' value of one limit, or "" on the
// largest plan.
func upgradeHint(t Tier, of func(planLimits) int, unit string) string {
	var more []string
	seen := false
	for _, p := range planOrder {
		if p == t {
			seen = true
			continue
		}
		if !seen {
			continue
		}
		if n := of(plans[p]); n < 0 {
			more = append(more, fmt.Sprintf("%s unlimited", p))
		} else {
			more = append(more, fmt.Sprintf("%s %d", p, n))
		}
	}
	if !seen {
		// an unknown tier is treated as free
		return upgradeHint(TierFree, of, unit)
	}
	if len(more) == 0 {
		return ""
	}
	return " Or upgrade the plan (" + unit + ": " + strings.Join(more, ", ") + "); on a self-hosted instance the operator sets it with `clausewatch account plan`."
}

func planName(t Tier) Tier {
	if t.Valid() {
		return t
	}
	return TierFree
}

// limitData adds the four members to data (made when nil) and returns it.
func limitData(data map[string]any, limit, used int, resetsAt time.Time, hint string) map[string]any {
	if data == nil {
		data = map[string]any{}
	}
	data["limit"], data["used"], data["hint"] = limit, used, hint
	if !resetsAt.IsZero() {
		data["resetsAt"] = resetsAt.UnixMilli()
	}
	return data
}

// untilText is how long until t from now, in hours and minutes.
func untilText(now, t time.Time) string {
	d := t.Sub(now).Round(time.Minute)
	if d < time.Minute {
		return "under a minute"
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return fmt.Sprintf("%d min", m)
	case m == 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// scanHint explains a refused scan: key is true for an API key's pool,
// false for the account's own (portal) pool, which credits extend.
func scanHint(t Tier, key bool, limit, used, asked int, now, resets time.Time) string {
	whose := "this API key"
	if !key {
		whose = "this account's own (portal) pool"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d scans a day used by %s on the %s plan", used, limit, whose, planName(t))
	if asked > 1 {
		fmt.Fprintf(&b, "; this request needs %d", asked)
	}
	fmt.Fprintf(&b, ". Scans come back at UTC midnight (%s, in %s)", resets.UTC().Format(time.RFC3339), untilText(now, resets))
	if key {
		b.WriteString("; each key has its own daily scans, so another key of the account may have some left.")
	} else {
		b.WriteString("; purchased credits are used once the pool is spent.")
	}
	b.WriteString(upgradeHint(t, func(l planLimits) int { return l.scans }, "scans a day"))
	return b.String()
}

func aiHint(t Tier, limit, used int, now, resets time.Time) string {
	return fmt.Sprintf("%d of %d AI summaries this month used on the %s plan. They come back at the start of the next month, UTC (%s, in %s); analyze without \"ai\" meanwhile.",
		used, limit, planName(t), resets.UTC().Format(time.RFC3339), untilText(now, resets)) +
		upgradeHint(t, func(l planLimits) int { return l.ai }, "AI summaries a month")
}

func keyLimitError(t Tier, limit int) error {
	hint := fmt.Sprintf("%d of %d active API keys on the %s plan. Revoke a key you no longer use (DELETE /api/developer/keys/{id}, or the portal's Keys page) to make room.",
		limit, limit, planName(t)) + upgradeHint(t, func(l planLimits) int { return l.keys }, "active keys")
	return &Error{Code: CodeForbidden, Message: "API key limit reached for this plan",
		Data: limitData(map[string]any{"keyLimit": limit}, limit, limit, time.Time{}, hint)}
}

func monitorLimitError(t Tier, limit, used int) error {
	hint := fmt.Sprintf("%d of %d active monitors on the %s plan. Delete a monitor you no longer need (DELETE /api/monitor?id=...) to make room.",
		used, limit, planName(t)) + upgradeHint(t, func(l planLimits) int { return l.monitors }, "active monitors")
	return &Error{Code: CodeForbidden, Message: "Active monitor limit reached for this plan",
		Data: limitData(map[string]any{"monitorLimit": limit}, limit, used, time.Time{}, hint)}
}
