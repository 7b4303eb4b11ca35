package analyze

import "testing"

// Tracking: each practice found in several wordings (findsEach, weighty_test.go).
func TestTrackingWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleTargetedAds, "Our advertising partners use cookies to show you personalised ads based on your browsing activity across other websites."},
		{titleTargetedAds, "We let advertising networks collect your device identifiers through our apps."},
		{titleTargetedAds, "We allow third-party marketing companies to place cookies on our site to target you with ads elsewhere."},
		{titleTargetedAds, "We engage in interest-based advertising (IBA) with our partners across the websites you visit."},
		{titleTargetedAds, "Ad networks we work with use your activity on our service to target advertising to you on other apps."},
		{titleAds, "We use the information we collect about you to show you tailored advertisements within the app."},
		{titleAds, "Your purchase history is used to personalise the ads you see in our store."},
		{titleAds, "We analyse your interests and preferences to show you more relevant advertising."},
		{titleAds, "To deliver advertising that may be relevant to your interests."},
		{titleAds, "Acme uses your profile data for advertising purposes."},
	})
}

// Tracking: sentences that share a practice's words but state another case or
// none.
func TestTrackingLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleAds, "Targeted advertising is more effective for advertisers than random ads."},
		{titleAds, "We do not target residents of the EU with ads based on their interests."},
		{titleAds, "You have choices about the personalised ads you see, for example in your ad settings."},
	})
}

// Tracking across other websites and apps.
func TestOtherSitesWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleOtherSites, "We and our partners track your activity across other websites and apps over time."},
		{titleOtherSites, "We collect information about your online activities over time and across third-party websites."},
	})
}
