package loopback

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Refused reports whether err is the hub refusing a write as it was
// asked: an admission plugin or policy, or validation, said no. Trying the
// same write again changes nothing until someone changes the policy or
// the object, so a controller says so on the object and tries again
// after a backoff. A conflict or a missing object is no refusal: the
// watch event that follows it brings the next try.
func Refused(err error) bool {
	return apierrors.IsForbidden(err) || apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) ||
		apierrors.IsRequestEntityTooLargeError(err)
}
