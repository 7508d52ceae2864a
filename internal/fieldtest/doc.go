// Package fieldtest is what unit tests of validation share: checking that
// a field.ErrorList says what it should.
package fieldtest
