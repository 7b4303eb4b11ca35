package graph

// ComplexityLimitForTest lets the external tests size their queries.
const ComplexityLimitForTest = ComplexityLimit
