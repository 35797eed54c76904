-- wrk: the same shape from PostGraphile 4 on the same tables.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"query":"{ allNetworkVoucherBoxes(first: 10, orderBy: RANKING_ASC, condition: {marketplaceId: \\"1\\", isActive: true}) { nodes { id name boxOffersByBoxId(first: 5, condition: {status: \\"VALIDATED\\"}) { nodes { partnerByPartnerId { id name partnerLabelsByPartnerId { nodes { name logoUrl } } } } } } } }"}'
