package linestream

import "github.com/chatwire/chatwire/internal/jsonscan"

// skeletons is a decoder's memory of the skeletons of its lines, one class
// of lines per code (the AI SDK writes a few shapes per code): see
// internal/jsonscan's skeleton.go for what a skeleton is and how lines are
// read with it.
type skeletons struct {
	out   jsonscan.Out // the last line's skeleton
	codes [numKinds]jsonscan.Skeletons
}
