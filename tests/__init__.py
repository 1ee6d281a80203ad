"""chemref's test suite (a package, so shared helpers are imported as ``tests.helpers``)."""
