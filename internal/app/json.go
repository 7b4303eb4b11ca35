package app

import (
	"encoding/json"
	"time"
)

// TimeFormat is the contract's timestamp: ISO 8601, UTC, milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// FormatTime renders t in TimeFormat.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// FormatTimePtr renders an optional time; nil stays nil (JSON null).
func FormatTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := FormatTime(*t)
	return &s
}

// MarshalJSON writes the key as the contract lists it (interface.md 2.1).
func (k Key) MarshalJSON() ([]byte, error) {
	scopes := k.Scopes
	if scopes == nil {
		scopes = Scopes{}
	}
	return json.Marshal(struct {
		ID           string   `json:"id"`
		Name         string   `json:"name"`
		KeyPrefix    string   `json:"keyPrefix"`
		Scopes       []string `json:"scopes"`
		RequestCount int64    `json:"requestCount"`
		LastUsedAt   *string  `json:"lastUsedAt"`
		CreatedAt    string   `json:"createdAt"`
		RevokedAt    *string  `json:"revokedAt"`
	}{k.ID, k.Name, k.Prefix, scopes, k.RequestCount, FormatTimePtr(k.LastUsedAt), FormatTime(k.CreatedAt), FormatTimePtr(k.RevokedAt)})
}

// Timestamp is a time that reads and writes as TimeFormat in JSON.
type Timestamp struct{ time.Time }

// MarshalJSON implements json.Marshaler.
func (t Timestamp) MarshalJSON() ([]byte, error) { return json.Marshal(FormatTime(t.Time)) }

// UnmarshalJSON implements json.Unmarshaler.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	t.Time = v.UTC()
	return err
}
