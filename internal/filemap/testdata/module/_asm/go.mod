module example.com/module/_asm

go 1.26
