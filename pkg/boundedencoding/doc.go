// Package boundedencoding bounds what the hub spends to send one object
// in a format meant for people: pretty JSON (?pretty=true, or a client
// that looks like a browser or curl) and YAML.
//
// Both indent each nested value by its depth, so their size grows with
// the depth times the number of values: a 54 KB object nested 9,000 deep
// pretty-prints to 405 MB, and a string of many lines deep in an object
// becomes, in YAML, a block of as many lines each indented to that depth.
// The encoders here write the compact JSON first, which is as large as the
// object, and indent it only while the indented form stays within a bound
// (four times the compact size, and at least 1 MiB): past it they send the
// compact JSON instead, which is valid pretty JSON's content and valid
// YAML too. Nothing a request costs grows with the square of the depth.
// YAML is made only of objects up to MaxYAMLInput: reading JSON as YAML
// costs far more memory than the JSON itself.
package boundedencoding
