// Package authentication serves authentication.k8s.io/v1
// SelfSubjectReviews in every logical cluster: what kubectl auth whoami
// asks. A review tells the requester who the hub takes it for, as
// authenticated for the logical cluster it is posted to, and is never
// stored.
package authentication
