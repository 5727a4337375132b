module example.com/module/nested

go 1.26
