// Package storepatch applies JSON merge patches and JSON patches to
// objects of a registry store, for unit tests of controllers that write
// through the API: it stands in for the API's patch handler, minus
// admission, which the hub's e2e tests cover.
package storepatch
