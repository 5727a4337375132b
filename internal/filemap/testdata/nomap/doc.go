// Package nomap documents itself without a map.
package nomap
