package analyze

// Retention: what the user deleted kept for no limited time. The privacy
// category retention, read per paragraph, has its patterns in privacy.go
// (privacyCats).

// The case's title, as cases.tsv spells it.
const titleKeepsDeleted = "This service holds onto content that you've deleted"

// The rule case, tried in weightyRules' order (weighty.go).
var ruleKeepsDeleted = ruleCase{info: weightyCase(titleKeepsDeleted, SeverityBlocker, "retention"), needs: []string{"retain", "keep", "kept", "stor", "preserv", "hold", "remain", "persist", "continu", "archiv", "delet", "remov", "eras", "cop"}, kw: []string{"after", "once", "following", "despite", "even", "deleted", "removed", "copies"}, match: keptAfterDeletion, conf: 0.75, keepOthers: true}

var (
	// keeping what the user deleted: kept, stored, not deleted, copies
	// that remain
	keepRe = mustPattern(`\b(retain|retains|retained|retaining|keep|keeps|kept|keeping|store|stores|stored|storing|preserve|preserves|preserved|hold|holds|remain|remains|persist|persists|archive|archives|archived|continue to (use|store|retain|keep|display|hold|process)|(not|n't) (\S+ ){0,2}?(delete|deleted|remove|removed|erase|erased|purge|purged))\b`)
	// after the user deleted it
	afterDeleteRe = mustPattern(`\b(after|even after|once|even if|even though|following|despite) (you |the user |users |a user )?(have |has )?((delet|remov|eras)\w*|(clos|cancel|terminat|deactivat)\w* (your |the |their |an? )?(user )?(account|profile|membership)|(the )?(deletion|closure|termination) of (your |the |their )?(account|profile|content|data|information))\b|\b(deleted|removed) (content|data|information|posts|photos|messages|files|accounts?|items)\b|\b(content|data|information|posts|photos|messages|files|items) (that |which )?you (have )?(deleted|removed)\b|\b(residual|backup|cached|archived|archival) copies\b|\bcopies (\S+ ){0,8}?(remain|persist)\b`)
	// what is kept is the user's data or content, not an obligation or
	// the account itself
	keptDataRe = mustPattern(`\b(data|information|content|posts?|photos?|messages?|files?|copies|copy|records?|backups?|profile|comments?|videos?|uploads?)\b`)
	// kept to comply with the law: a case of its own (data kept after
	// erasure for legal obligations), not this one; nor is what "remains
	// our property" or "remains in effect"
	legalHoldRe = mustPattern(`\blegal (obligations?|requirements?|reasons|purposes|claims)|\brequired by (law|applicable law)|\bcomply with\b|\bas (reasonably )?necessary\b|\bremain\w* (\w+ ){0,2}(property|in (full )?(force|effect)|responsible|liable|active|valid|binding)\b`)
	// a bounded period is another case ("backups are deleted within 30
	// days"); without limit it is this one
	boundedRe   = mustPattern(`\b(\d+|thirty|sixty|ninety|one|two|three|six|twelve|forty-eight|twenty-four) (hours?|days?|weeks?|months?)\b|\b(limited|short|reasonable|brief|certain) (period|time)\b|\bwithin\b|\bup to\b`)
	unlimitedRe = mustPattern(`\b(indefinitely|forever|unlimited|undefined|no time limit)\b`)
)

// keptAfterDeletion: the service keeps (copies of) what the user
// deleted, for no limited time.
func keptAfterDeletion(w string) bool {
	return keepRe.MatchString(w) && afterDeleteRe.MatchString(w) && keptDataRe.MatchString(w) && !legalHoldRe.MatchString(w) && (!boundedRe.MatchString(w) || unlimitedRe.MatchString(w))
}
