package module
