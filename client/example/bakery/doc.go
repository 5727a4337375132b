// Command bakery creates a chat and prints the agent's progress as it
// arrives, then the assembled message and the chat's status.
//
// # Files
//
//	main.go           the program: a chat created, its parts as they arrive, the message
//	                  and the chat's status
package main
