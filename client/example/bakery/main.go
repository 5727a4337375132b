package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"time"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/linestream"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: bakery BASE_URL   (the key comes from CHATWIRE_API_KEY)")
	}
	c, err := client.New(os.Args[1], client.WithRetry(2)) // retry a 429 twice
	if err != nil {
		log.Fatal(err)
	}
	// Streams are long-lived: bound them with a context, not an http.Client.Timeout.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()

	s, err := c.CreateChat(ctx, client.Request{
		Content:       "A landing page for a bakery",
		Model:         client.ModelGammaK3,
		ExecutionMode: client.ExecutionModeBuild,
	})
	var apiErr *client.APIError
	switch {
	case errors.Is(err, client.ErrInsufficientCredits):
		log.Fatal("out of credits: ", err)
	case errors.As(err, &apiErr):
		log.Fatalf("status %d, request %s: %v", apiErr.StatusCode, apiErr.RequestID, err)
	case err != nil:
		log.Fatal(err)
	}
	defer s.Close()
	fmt.Println("chat", s.ChatID())

	var text []byte
	for s.Next() {
		if p := s.Part(); p.Kind() == linestream.KindText {
			text, _ = p.AppendText(text[:0])
			fmt.Printf("  %s", text)
		}
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	m := s.Message() // as the AI SDK's useChat holds it; json.Marshal(m) gives the SDK's JSON
	fmt.Printf("message %s: %d parts, %d tool call(s), finish %q, %v tokens\n",
		m.ID, len(m.Parts), len(m.ToolInvocations), s.FinishReason(), s.Usage().TotalTokens)

	st, err := c.Status(ctx, s.ChatID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("status", st.Status)
}
