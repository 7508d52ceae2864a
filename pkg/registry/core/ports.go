package core

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateProtocol checks a defaulted port protocol.
func ValidateProtocol(p corev1.Protocol, path *field.Path) field.ErrorList {
	return ValidateEnum(p, false, []corev1.Protocol{corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP}, path)
}

// ValidatePortNumber checks a port number, 1 to 65535.
func ValidatePortNumber(port int32, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsValidPortNum(int(port)) {
		errs = append(errs, field.Invalid(path, port, msg))
	}
	return errs
}

// ValidatePortNumOrName checks a reference to a port: a number or the
// IANA service name of a named container port.
func ValidatePortNumOrName(port intstr.IntOrString, path *field.Path) field.ErrorList {
	if port.Type == intstr.String {
		var errs field.ErrorList
		for _, msg := range validation.IsValidPortName(port.StrVal) {
			errs = append(errs, field.Invalid(path, port.StrVal, msg))
		}
		return errs
	}
	return ValidatePortNumber(port.IntVal, path)
}

// ValidatePortName checks the name of a port of a list of ports, seen
// holding the names before it: a DNS label, unique, and required when
// the list has more than one port, since consumers tell them apart by it.
func ValidatePortName(name string, ports int, seen sets.Set[string], path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case name == "" && ports > 1:
		errs = append(errs, field.Required(path, "must be specified when there is more than one port"))
	case name != "":
		for _, msg := range validation.IsDNS1123Label(name) {
			errs = append(errs, field.Invalid(path, name, msg))
		}
		if seen.Has(name) {
			errs = append(errs, field.Duplicate(path, name))
		}
		seen.Insert(name)
	}
	return errs
}

// ValidateIP checks an IP address as Kubernetes checks its older
// fields, which take leading zeros.
func ValidateIP(ip string, path *field.Path) field.ErrorList {
	return validation.IsValidIPForLegacyField(path, ip, false, nil)
}

// ValidateEnum checks that v is one of allowed, or empty when optional.
func ValidateEnum[T ~string](v T, optional bool, allowed []T, path *field.Path) field.ErrorList {
	if v == "" {
		if optional {
			return nil
		}
		return field.ErrorList{field.Required(path, "")}
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(path, v, allowed)}
}
