package identity

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Key seals the identity's private keys in the database: AES-256-GCM.
type Key [32]byte

// NewKey makes a random key.
func NewKey() (Key, error) {
	var k Key
	_, err := rand.Read(k[:])
	return k, err
}

// ReadKeyFile reads the key in file: 32 bytes in standard base64, on one
// line, as WriteKeyFile writes it and as
// `head -c 32 /dev/urandom | base64` makes one.
func ReadKeyFile(file string) (Key, error) {
	var k Key
	data, err := os.ReadFile(file)
	if err != nil {
		return k, err
	}
	raw, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(data)))
	if err != nil || len(raw) != len(k) {
		return k, fmt.Errorf("identity key file %s must hold %d random bytes in base64, as hub init writes it", file, len(k))
	}
	copy(k[:], raw)
	return k, nil
}

// WriteKeyFile writes k into file, readable by its owner only, unless
// file exists: then it returns an error that is fs.ErrExist. The file
// appears whole or not at all, so that replicas starting at once with one
// key file path either write it or read the one written.
func WriteKeyFile(file string, k Key) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".identity-key-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(base64.StdEncoding.EncodeToString(k[:]) + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return err
	}
	// A link fails if file exists, where a rename would replace it.
	return os.Link(tmp.Name(), file)
}

// errWrongKey is a sealed value that k cannot open: sealed under another
// key, or altered.
var errWrongKey = errors.New("sealed under another key")

// seal encrypts plain under k, bound to context, which opening must give
// again. The result is the random nonce followed by the ciphertext.
func (k Key) seal(plain []byte, context string) ([]byte, error) {
	gcm, err := k.gcm()
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, gcm.NonceSize(), gcm.NonceSize()+len(plain)+gcm.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return gcm.Seal(nonce, nonce, plain, []byte(context)), nil
}

// open decrypts what seal sealed under k with context.
func (k Key) open(sealed []byte, context string) ([]byte, error) {
	gcm, err := k.gcm()
	if err != nil {
		return nil, err
	}
	if len(sealed) < gcm.NonceSize() {
		return nil, errWrongKey
	}
	plain, err := gcm.Open(nil, sealed[:gcm.NonceSize()], sealed[gcm.NonceSize():], []byte(context))
	if err != nil {
		return nil, errWrongKey
	}
	return plain, nil
}

func (k Key) gcm() (cipher.AEAD, error) {
	block, err := aes.NewCipher(k[:])
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
