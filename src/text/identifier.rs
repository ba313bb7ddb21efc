//! Splitting identifiers (`apiKey`, `API_KEY`, `x-auth-token`) into their words.

/// `apiKey` → `[api, key]`, `API_KEY` → `[api, key]`, `x-auth-token` → `[x, auth, token]`.
pub fn split_identifier(name: &str) -> Vec<String> {
    let mut segments = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (index, &c) in chars.iter().enumerate() {
        if c == '_' || c == '-' || c == '.' || c == ' ' {
            if !current.is_empty() {
                segments.push(std::mem::take(&mut current));
            }
            continue;
        }
        let previous = index.checked_sub(1).map(|i| chars[i]);
        let next = chars.get(index + 1);
        let boundary = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
            });
        if boundary && !current.is_empty() {
            segments.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        segments.push(current);
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_on_separators_and_case() {
        assert_eq!(split_identifier("apiKey"), ["api", "key"]);
        assert_eq!(split_identifier("API_KEY"), ["api", "key"]);
        assert_eq!(split_identifier("x-auth-token"), ["x", "auth", "token"]);
        assert_eq!(split_identifier("HTTPToken"), ["http", "token"]);
        assert_eq!(split_identifier("monkey"), ["monkey"]);
    }
}
