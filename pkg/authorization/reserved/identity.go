package reserved

// Identity says why a credential naming user and groups may not be
// issued to anyone but system:masters, as a signer of client
// certificates asks before it signs one a tenant requested: the reason
// the first reserved name among them is reserved, or "" if none is. A
// certificate is an identity its holder need not impersonate, so it
// may name no more than a tenant admin may impersonate.
func Identity(user string, groups []string) string {
	if why := userReason(user); why != "" {
		return why
	}
	for _, g := range groups {
		if why := groupReason(g); why != "" {
			return why
		}
	}
	return ""
}
