package extract

import (
	"strings"
	"unicode"
)

// Phrases naming a document type, in the languages we detect. A title
// match weighs most; in the text, the phrases are counted.
var typePhrases = map[string][]string{
	"privacy": {
		"privacy policy", "privacy notice", "privacy statement", "data protection", "personal data",
		"personal information", "cookie policy", "data policy", "privacy",
		"datenschutz", "personenbezogene daten", "datenschutzerklärung",
		"politique de confidentialité", "données personnelles", "protection des données", "confidentialité",
		"política de privacidad", "datos personales", "protección de datos", "privacidad",
		"informativa sulla privacy", "dati personali", "protezione dei dati",
		"privacyverklaring", "privacybeleid", "persoonsgegevens", "gegevensbescherming",
		"política de privacidade", "dados pessoais", "proteção de dados", "privacidade",
		"polityka prywatności", "dane osobowe", "ochrona danych", "prywatności",
	},
	"terms": {
		"terms of service", "terms of use", "terms and conditions", "terms & conditions", "user agreement",
		"acceptable use", "service agreement", "end user license", "license agreement", "conditions of use",
		"governing law", "limitation of liability", "arbitration", "terms",
		"nutzungsbedingungen", "allgemeine geschäftsbedingungen", "agb", "geschäftsbedingungen",
		"conditions générales", "conditions d'utilisation", "mentions légales",
		"términos y condiciones", "condiciones de uso", "términos de uso", "términos de servicio",
		"termini e condizioni", "condizioni d'uso", "termini di servizio", "condizioni generali",
		"algemene voorwaarden", "gebruiksvoorwaarden", "voorwaarden",
		"termos de uso", "termos e condições", "termos de serviço",
		"regulamin", "warunki korzystania", "warunki świadczenia usług",
	},
}

// bodyPhrases are counted in the text: the vocabulary of each type.
var bodyPhrases = map[string][]string{
	"privacy": {"privacy", "personal data", "personal information", "datenschutz", "personenbezogen",
		"données personnelles", "datos personales", "dati personali", "persoonsgegevens", "dados pessoais", "dane osobowe"},
	"terms": {"terms of", "agreement", "liability", "warrant", "indemnif", "arbitration", "governing law",
		"nutzungsbedingungen", "haftung", "conditions générales", "responsabilité", "términos", "responsabilidad",
		"termini", "responsabilità", "voorwaarden", "aansprakelijkheid", "termos", "responsabilidade", "regulamin", "odpowiedzialność"},
}

// namesDocument reports whether a title names a legal document type.
func namesDocument(title string) bool {
	t := strings.ToLower(title)
	for _, phrases := range typePhrases {
		for _, p := range phrases {
			if strings.Contains(t, p) {
				return true
			}
		}
	}
	return strings.Contains(t, "policy") || strings.Contains(t, "agreement") || strings.Contains(t, "notice")
}

// DetectType classifies a document as "terms", "privacy" or "other" from
// its title and the vocabulary of its text.
func DetectType(title, text string) string {
	t := strings.ToLower(title)
	if len(text) > 12000 {
		text = text[:12000]
	}
	body := strings.ToLower(text)
	score := map[string]float64{}
	for typ, phrases := range typePhrases {
		for k, p := range phrases {
			w := 1.0
			if k < 5 {
				w = 2 // the most specific names
			}
			if strings.Contains(t, p) {
				score[typ] += 20 * w
			}
		}
		for _, p := range bodyPhrases[typ] {
			if c := strings.Count(body, p); c > 0 {
				score[typ] += float64(min(c, 30))
			}
		}
	}
	// The opening words name the document more reliably than the rest.
	head := body
	if len(head) > 400 {
		head = head[:400]
	}
	for typ, phrases := range typePhrases {
		for _, p := range phrases[:5] {
			if strings.Contains(head, p) {
				score[typ] += 15
			}
		}
	}
	p, tm := score["privacy"], score["terms"]
	switch {
	case p < 6 && tm < 6:
		return "other"
	case p > tm:
		return "privacy"
	default:
		return "terms"
	}
}

// Frequent short words per language; rarely shared across these languages.
var stopwords = map[string][]string{
	"en": {"the", "and", "of", "to", "you", "that", "is", "for", "with", "this", "are", "or", "we", "your", "be", "by", "not", "any", "will", "our"},
	"de": {"der", "die", "und", "das", "nicht", "ist", "zu", "den", "mit", "sie", "von", "auf", "für", "eine", "dem", "des", "wir", "ihre", "werden", "oder"},
	"fr": {"le", "la", "les", "et", "des", "est", "vous", "que", "pour", "dans", "une", "du", "sur", "nous", "pas", "qui", "sont", "vos", "votre", "avec"},
	"es": {"el", "la", "los", "las", "y", "que", "del", "para", "una", "por", "con", "su", "sus", "usted", "nosotros", "se", "al", "es", "lo", "como"},
	"it": {"il", "di", "che", "è", "per", "una", "sono", "con", "gli", "della", "del", "le", "non", "dei", "delle", "alla", "nel", "questo", "suoi", "essere"},
	"nl": {"de", "het", "een", "van", "en", "is", "dat", "niet", "op", "voor", "zijn", "met", "je", "wij", "uw", "aan", "ook", "worden", "deze", "bij"},
	"pt": {"o", "os", "as", "que", "não", "uma", "para", "com", "do", "da", "dos", "das", "você", "seus", "ao", "pelo", "pela", "são", "em", "nós"},
	"pl": {"i", "w", "nie", "się", "na", "że", "z", "do", "jest", "to", "lub", "oraz", "przez", "dla", "od", "jak", "są", "tym", "może", "danych"},
	"sv": {"och", "att", "det", "som", "är", "för", "på", "med", "av", "inte", "till", "vi", "du", "har", "om", "din", "eller", "kan", "ett", "dina"},
	"da": {"og", "at", "det", "som", "er", "for", "på", "med", "af", "ikke", "til", "vi", "du", "har", "om", "din", "eller", "kan", "et", "dine"},
}

var stopIndex = func() map[string][]string {
	idx := map[string][]string{}
	for lang, ws := range stopwords {
		for _, w := range ws {
			idx[w] = append(idx[w], lang)
		}
	}
	return idx
}()

// DetectLanguage returns the ISO 639-1 code of the text's language (en,
// de, fr, es, it, nl, pt, pl, sv, da, and ja/zh/ko/ru/el by script), or ""
// when unsure.
func DetectLanguage(text string) string {
	if len(text) > 12000 {
		text = text[:12000]
	}
	counts := map[string]int{}
	words, letters := 0, 0
	scripts := map[string]int{}
	start := -1
	for i, r := range text + " " {
		if unicode.IsLetter(r) {
			letters++
			switch {
			case r < 0x370:
			case unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r):
				scripts["ja"]++
			case unicode.Is(unicode.Han, r):
				scripts["zh"]++
			case unicode.Is(unicode.Hangul, r):
				scripts["ko"]++
			case unicode.Is(unicode.Cyrillic, r):
				scripts["ru"]++
			case unicode.Is(unicode.Greek, r):
				scripts["el"]++
			}
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := strings.ToLower(text[start:i])
			words++
			for _, l := range stopIndex[w] {
				counts[l]++
			}
			start = -1
		}
	}
	if letters == 0 {
		return ""
	}
	if scripts["ja"]*10 > letters {
		return "ja"
	}
	for _, l := range []string{"zh", "ko", "ru", "el"} {
		if scripts[l]*2 > letters {
			return l
		}
	}
	best, second := "", ""
	for l, c := range counts {
		if best == "" || c > counts[best] || c == counts[best] && l < best {
			best, second = l, best
		} else if second == "" || c > counts[second] {
			second = l
		}
	}
	if best == "" || counts[best] < 3 || counts[best]*100 < words*8 {
		return ""
	}
	if second != "" && counts[best]*10 < counts[second]*12 {
		return "" // too close to call
	}
	return best
}
